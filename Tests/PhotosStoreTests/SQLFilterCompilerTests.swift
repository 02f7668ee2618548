import Foundation
import Testing

@testable import PhotosStore

@Suite("Compiling filters to SQL")
struct SQLFilterCompilerTests {
    /// A filter as SQLite runs it: its text and its binds.
    private func compiled(_ filter: StoreFilter, _ dialect: SQLDialect = .sqlite) -> (sql: String, binds: [StoreValue]) {
        SQLFilterCompiler.compile(filter).rendered(for: dialect)
    }

    @Test func valuesAreBoundNeverPasted() {
        let filter: StoreFilter = .and([
            .compare(.field(.title), .equal, .value(.text("'; DROP TABLE asset; --"))),
            .isIn(.field(.mediaType), [.integer(1), .integer(2)]),
        ])
        let (sql, binds) = compiled(filter)
        #expect(!sql.contains("DROP"))
        #expect(sql == "((collection.title IS ?) AND (asset.mediaType IN (?, ?)))")
        #expect(binds == [.text("'; DROP TABLE asset; --"), .integer(1), .integer(2)])
        // PostgreSQL numbers the same binds, and compares a value with `=`, which its indexes serve.
        #expect(compiled(filter, .postgres).sql == "((collection.title = $1) AND (asset.mediaType IN ($2, $3)))")
    }

    @Test func longListsAreBoundAsOneJSONArray() {
        let (sql, binds) = compiled(.isIn(.field(.assetUUID), (0..<100).map { .text("id-\($0)") }))
        #expect(sql.contains("json_each(?)"))
        #expect(binds.count == 1)
    }

    @Test func comparisonsUnderNOTAreTwoValued() {
        #expect(compiled(.not(.compare(.field(.creationDate), .less, .value(.real(5))))).sql == "(NOT COALESCE((asset.creationDate < ?), FALSE))")
        #expect(compiled(.compare(.field(.creationDate), .less, .value(.real(5)))).sql == "(asset.creationDate < ?)")
        #expect(compiled(.not(.compare(.field(.pixelWidth), .less, .value(.integer(5))))).sql == "(NOT (asset.pixelWidth < ?))")
    }

    /// A masked key is written once per use in membership SQL: twice with `nil` in the list,
    /// not at all for an empty list (FuzzPredicate found SQLite refusing both).
    @Test func everyPlaceholderHasItsArgument() {
        let masked = StoreOperand.bitwiseAnd(.field(.mediaSubtypes), .value(.integer(4)))
        let filters: [StoreFilter] = [
            .isIn(masked, []), .isIn(masked, [.null]), .isIn(masked, [.null, .integer(4)]), .not(.isIn(masked, [.integer(4)])),
            .isIn(masked, [.null] + (0..<40).map { .integer($0) }),
        ]
        for filter in filters {
            let (sql, binds) = compiled(filter)
            #expect(sql.filter { $0 == "?" }.count == binds.count, "\(sql)")
            let (numbered, _) = compiled(filter, .postgres)
            #expect(numbered.components(separatedBy: "$").count - 1 == binds.count, "\(numbered)")
        }
    }

    @Test func jsonStringsAreEscaped() {
        #expect(StoreValue.jsonString("a\"b\\c\n\u{1}") == #""a\"b\\c\n\u0001""#)
    }

    @Test func textMatching() {
        #expect(TextMatching.test(.like, "IMG_0042.JPG", "img_00??.*", options: .caseInsensitive))
        #expect(!TextMatching.test(.like, "IMG_0042.JPG", "img_00?.*", options: .caseInsensitive))
        #expect(TextMatching.test(.like, "abc", "*", options: []))
        #expect(TextMatching.test(.contains, "Crème Brûlée", "creme", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!TextMatching.test(.contains, "Crème Brûlée", "creme", options: [.caseInsensitive]))
        #expect(TextMatching.test(.beginsWith, "Zürich", "zu", options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(!TextMatching.test(.endsWith, nil, "x", options: []))
    }
}
