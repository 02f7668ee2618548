import Foundation
import Testing

@testable import PhotosStore

@Suite("Compiling filters to SQL")
struct SQLFilterCompilerTests {
    @Test func valuesAreBoundNeverPasted() {
        var compiler = SQLFilterCompiler(dialect: .sqlite)
        let sql = compiler.compile(
            .and([
                .compare(.field(.title), .equal, .value(.text("'; DROP TABLE asset; --"))),
                .isIn(.field(.mediaType), [.integer(1), .integer(2)]),
            ]))
        #expect(!sql.contains("DROP"))
        #expect(sql == "((collection.title IS ?) AND (asset.mediaType IN (?, ?)))")
        #expect(compiler.values.count == 3)
    }

    @Test func longListsAreBoundAsOneJSONArray() {
        var compiler = SQLFilterCompiler(dialect: .sqlite)
        let sql = compiler.compile(.isIn(.field(.assetUUID), (0..<100).map { .text("id-\($0)") }))
        #expect(sql.contains("json_each(?)"))
        #expect(compiler.values.count == 1)
    }

    @Test func comparisonsUnderNOTAreTwoValued() {
        var compiler = SQLFilterCompiler(dialect: .sqlite)
        #expect(compiler.compile(.not(.compare(.field(.creationDate), .less, .value(.real(5))))) == "(NOT COALESCE((asset.creationDate < ?), FALSE))")
        var positive = SQLFilterCompiler(dialect: .sqlite)
        #expect(positive.compile(.compare(.field(.creationDate), .less, .value(.real(5)))) == "(asset.creationDate < ?)")
        var nonNullable = SQLFilterCompiler(dialect: .sqlite)
        #expect(nonNullable.compile(.not(.compare(.field(.pixelWidth), .less, .value(.integer(5))))) == "(NOT (asset.pixelWidth < ?))")
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
            var compiler = SQLFilterCompiler(dialect: .sqlite)
            let sql = compiler.compile(filter)
            #expect(sql.filter { $0 == "?" }.count == compiler.values.count, "\(sql)")
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
