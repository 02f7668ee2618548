import Foundation

/// A filter over assets or collections, bound to store fields: what a PhotoKit predicate
/// becomes once its keys are checked against the fetched class.
///
/// Semantics are two-valued, as `NSPredicate` evaluation is: a comparison with a missing
/// (`NULL`) value is false, `nil == nil` is true, and `NOT` of a false comparison is true.
/// ``SQLFilterCompiler`` keeps that promise in SQL, where `NULL` would otherwise be three-valued.
package indirect enum StoreFilter: Sendable, Hashable {
    case constant(Bool)
    case and([StoreFilter])
    case or([StoreFilter])
    case not(StoreFilter)
    /// `lhs op rhs` on numbers, dates (as seconds since 1970) or strings (binary order).
    case compare(StoreOperand, StoreComparison, StoreOperand)
    /// A string test; `options` folds both sides first.
    case text(StoreOperand, StoreTextTest, StoreOperand, options: StoreTextOptions)
    /// `value BETWEEN lower AND upper`, both ends included.
    case between(StoreOperand, lower: StoreOperand, upper: StoreOperand)
    /// Membership, with `==` semantics (so `NULL` in the list matches a missing value).
    case isIn(StoreOperand, [StoreValue])
}

extension StoreFilter {
    /// The fields the filter reads.
    package var fields: Set<StoreField> {
        switch self {
        case .constant: []
        case .and(let filters), .or(let filters): filters.reduce(into: []) { $0.formUnion($1.fields) }
        case .not(let filter): filter.fields
        case .compare(let left, _, let right), .text(let left, _, let right, _): left.fields.union(right.fields)
        case .between(let value, let lower, let upper): value.fields.union(lower.fields).union(upper.fields)
        case .isIn(let value, _): value.fields
        }
    }
}

extension StoreOperand {
    /// The fields the operand reads.
    var fields: Set<StoreField> {
        switch self {
        case .field(let field): [field]
        case .value: []
        case .bitwiseAnd(let left, let right): left.fields.union(right.fields)
        case .folded(let operand, _): operand.fields
        }
    }
}

package enum StoreComparison: String, Sendable, Hashable {
    case equal = "IS"
    case notEqual = "IS NOT"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

package enum StoreTextTest: String, Sendable, Hashable {
    case equal = "ph_text_equal"
    case contains = "ph_text_contains"
    case beginsWith = "ph_text_beginswith"
    case endsWith = "ph_text_endswith"
    /// `*` matches any run of characters and `?` one character; the whole string must match.
    case like = "ph_text_like"
}

/// `[c]` and `[d]`.
package struct StoreTextOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    package static let caseInsensitive = StoreTextOptions(rawValue: 1)
    package static let diacriticInsensitive = StoreTextOptions(rawValue: 2)
}

package indirect enum StoreOperand: Sendable, Hashable {
    case field(StoreField)
    case value(StoreValue)
    case bitwiseAnd(StoreOperand, StoreOperand)
    /// A string folded as `[c]`/`[d]` ask, for ordered comparisons with those options.
    case folded(StoreOperand, StoreTextOptions)
}

/// A constant bound as an SQL argument, never pasted into SQL text.
package enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// A column (or derived expression) a filter or sort may use.
package enum StoreField: String, Sendable, Hashable, CaseIterable {
    // Assets
    case assetUUID
    /// `uuid || '/L0/001'`, for string tests on `localIdentifier`.
    case assetLocalIdentifier
    case creationDate
    case modificationDate
    case addedDate
    case mediaType
    case mediaSubtypes
    case sourceType
    case duration
    case pixelWidth
    case pixelHeight
    case isFavorite
    case isHidden
    case burstIdentifier
    case burstSelectionTypes
    case representsBurst
    /// The creation date on the clock where it was taken: `creationDate` plus the time zone
    /// offset the file gave (none: UTC), for searches by year and month.
    case localCreationDate
    /// The month (1-12) of ``localCreationDate``.
    case localCreationMonth
    // Collections
    case collectionUUID
    /// `uuid || '/L0/040'` or `'/L0/020'`, depending on the row's kind.
    case collectionLocalIdentifier
    case title
    case startDate
    case endDate
    case estimatedAssetCount

    /// Whether the field belongs to the asset table (else the collection table).
    package var isAssetField: Bool {
        switch self {
        case .collectionUUID, .collectionLocalIdentifier, .title, .startDate, .endDate,
            .estimatedAssetCount:
            false
        default: true
        }
    }

    /// Whether the column may hold `NULL`, as its table's description says.
    package var isNullable: Bool {
        switch self {
        case .assetUUID, .assetLocalIdentifier, .collectionUUID, .collectionLocalIdentifier: false
        case .estimatedAssetCount, .localCreationDate, .localCreationMonth: true
        case .title, .startDate, .endDate: !CollectionColumn.table.column(named: rawValue).isNotNull
        default: !AssetColumn.table.column(named: rawValue).isNotNull
        }
    }

    /// The SQL expression, in the context of `FROM asset` or `FROM collection`.
    var sql: StoreSQL {
        switch self {
        case .assetUUID: "asset.uuid"
        case .assetLocalIdentifier: "(asset.uuid || '/L0/001')"
        case .collectionUUID: "collection.uuid"
        case .collectionLocalIdentifier:
            "(collection.uuid || CASE collection.isList WHEN 0 THEN '/L0/040' ELSE '/L0/020' END)"
        case .estimatedAssetCount: CollectionCounts.estimatedAssetCount
        case .localCreationDate: "(asset.creationDate + COALESCE(asset.creationTimeZoneOffset, 0))"
        case .localCreationMonth:
            .either(
                sqlite: "CAST(strftime('%m', asset.creationDate + COALESCE(asset.creationTimeZoneOffset, 0), 'unixepoch') AS INTEGER)",
                postgres: """
                    CAST(EXTRACT(MONTH FROM to_timestamp(asset.creationDate + COALESCE(asset.creationTimeZoneOffset, 0)) \
                    AT TIME ZONE 'UTC') AS BIGINT)
                    """)
        case .title, .startDate, .endDate: "collection.\(unescaped: rawValue)"
        default: "asset.\(unescaped: rawValue)"
        }
    }
}

/// One sort key; the compiler always appends the row id so orders are total and stable.
package struct StoreSort: Sendable, Hashable {
    package var field: StoreField
    package var ascending: Bool

    package init(_ field: StoreField, ascending: Bool) {
        self.field = field
        self.ascending = ascending
    }
}
