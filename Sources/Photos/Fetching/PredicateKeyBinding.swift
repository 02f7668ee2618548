import Foundation
import PhotosStore

/// Binds a parsed predicate to the store fields of the fetched class, checking every key,
/// operator and value type, and producing the filter the store compiles to SQL.
struct PredicateKeyBinding {
    let entity: FetchEntity
    let format: String

    func bind(_ node: PredicateNode) throws(PHPredicateError) -> StoreFilter {
        switch node {
        case .constant(let value): return .constant(value)
        case .and(let parts): return .and(try parts.map { (part) throws(PHPredicateError) in try bind(part) })
        case .or(let parts): return .or(try parts.map { (part) throws(PHPredicateError) in try bind(part) })
        case .not(let inner): return .not(try bind(inner))
        case .comparison(let comparison): return try bind(comparison)
        }
    }

    private func unsupported(_ message: String, _ token: String, _ position: Int) -> PHPredicateError {
        PHPredicateError(
            message: "Unsupported predicate in fetch options for \(entity.className): \(message)", token: token,
            position: position, format: format)
    }

    private func key(_ name: String, _ position: Int) throws(PHPredicateError) -> FetchEntity.Key {
        guard let key = entity.key(name) else {
            throw unsupported("unsupported key", name, position)
        }
        return key
    }

    private func bind(_ comparison: PredicateComparison) throws(PHPredicateError) -> StoreFilter {
        var comparison = comparison
        // Put the key on the left: `5 < pixelWidth` is `pixelWidth > 5`.
        if case .value = comparison.lhs, case .key = comparison.rhs, let flipped = comparison.op.flipped {
            swap(&comparison.lhs, &comparison.rhs)
            comparison.op = flipped
        }
        // `{1, 2} CONTAINS mediaType` is `mediaType IN {1, 2}`.
        if comparison.op == .contains, case .key = comparison.rhs {
            swap(&comparison.lhs, &comparison.rhs)
            comparison.op = .in
        }
        let (field, kind) = try boundOperand(comparison.lhs, position: comparison.position)

        // `[c]` and `[d]` fold strings (identifiers as local identifier text) and leave every
        // other value, `nil` included, as it is: what PredicateEvaluator does.
        let options = kind.isString ? comparison.options.store : []
        let textField: StoreOperand = kind.isIdentity ? .field(entity.localIdentifierField) : field
        switch comparison.op {
        case .in:
            let values = try listValues(comparison.rhs, kind: kind, position: comparison.position)
            if !options.isEmpty { return .isIn(.folded(textField, options), values.map { $0.folded(options) }) }
            if case .identity = kind { return .isIn(.field(entity.uuidField), values.map(identityValue)) }
            return .isIn(field, values)
        case .between:
            if kind.isIdentity {
                throw unsupported("identifiers can only be compared for equality", comparison.op.rawValue, comparison.position)
            }
            let values = try listValues(comparison.rhs, kind: kind, position: comparison.position)
            guard values.count == 2 else {
                throw unsupported("BETWEEN needs two values", "BETWEEN", comparison.position)
            }
            if !options.isEmpty {
                return .between(.folded(field, options), lower: .folded(.value(values[0]), options), upper: .folded(.value(values[1]), options))
            }
            return .between(field, lower: .value(values[0]), upper: .value(values[1]))
        case .contains, .beginsWith, .endsWith, .like:
            guard kind.isString else {
                throw unsupported("\(comparison.op.rawValue) applies to strings only", comparison.op.rawValue, comparison.position)
            }
            let rhs = try operand(comparison.rhs, kind: .field(.title, .string), position: comparison.position)
            return .text(textField, comparison.op.textTest, rhs, options: comparison.options.store)
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .identity = kind {
                guard comparison.op == .equal || comparison.op == .notEqual else {
                    throw unsupported("identifiers can only be compared for equality", comparison.op.rawValue, comparison.position)
                }
                let value = try scalar(comparison.rhs, kind: kind, position: comparison.position)
                let equal: StoreFilter =
                    options.isEmpty || value == .null
                    ? .compare(.field(entity.uuidField), .equal, .value(identityValue(value)))
                    : .text(textField, .equal, .value(value), options: options)
                return comparison.op == .equal ? equal : .not(equal)
            }
            let rhs = try operand(comparison.rhs, kind: kind, position: comparison.position)
            if !options.isEmpty, rhs != .value(.null) {
                if comparison.op == .equal || comparison.op == .notEqual {
                    let test = StoreFilter.text(field, .equal, rhs, options: options)
                    return comparison.op == .equal ? test : .not(test)
                }
                return .compare(.folded(field, options), comparison.op.storeComparison!, .folded(rhs, options))
            }
            return .compare(field, comparison.op.storeComparison!, rhs)
        }
    }

    /// The left side: a key, or a key masked with `&`.
    private func boundOperand(_ operand: PredicateOperand, position: Int) throws(PHPredicateError)
        -> (StoreOperand, FetchEntity.Key)
    {
        switch operand {
        case .key(let name, let keyPosition):
            let key = try key(name, keyPosition)
            switch key {
            case .field(let field, _): return (.field(field), key)
            case .identity: return (.field(entity.uuidField), key)
            }
        case .bitwiseAnd(let lhs, let rhs):
            let (field, key) = try boundOperand(lhs, position: position)
            guard case .field(_, .integer) = key else {
                throw unsupported("& applies to integer keys only", "&", position)
            }
            let mask = try self.operand(rhs, kind: key, position: position)
            return (.bitwiseAnd(field, Self.integerMask(mask)), key)
        case .value, .aggregate:
            throw unsupported("a comparison needs a key on one side", "\(operand)", position)
        }
    }

    /// A `&` mask as PredicateEvaluator takes it: a fraction cut toward zero, and a number no
    /// Int64 holds no value (SQLite would saturate it to Int64's end instead).
    private static func integerMask(_ mask: StoreOperand) -> StoreOperand {
        guard case .value(.real(let number)) = mask else { return mask }
        return .value(Int64(exactly: number.rounded(.towardZero)).map(StoreValue.integer) ?? .null)
    }

    /// The right side: a constant (converted to the key's type) or another key.
    private func operand(_ operand: PredicateOperand, kind: FetchEntity.Key, position: Int) throws(PHPredicateError)
        -> StoreOperand
    {
        switch operand {
        case .key(let name, let keyPosition):
            switch try key(name, keyPosition) {
            case .field(let field, _): return .field(field)
            case .identity: return .field(entity.uuidField)
            }
        case .bitwiseAnd:
            return try boundOperand(operand, position: position).0
        case .value, .aggregate:
            return .value(try scalar(operand, kind: kind, position: position))
        }
    }

    private func scalar(_ operand: PredicateOperand, kind: FetchEntity.Key, position: Int) throws(PHPredicateError) -> StoreValue {
        guard case .value(let value) = operand else {
            throw unsupported("expected a single value", "\(operand)", position)
        }
        return try convert(value, kind: kind, position: position)
    }

    private func listValues(_ operand: PredicateOperand, kind: FetchEntity.Key, position: Int) throws(PHPredicateError)
        -> [StoreValue]
    {
        let values: [PredicateValue]
        switch operand {
        case .value(.array(let items)): values = items
        case .aggregate(let items):
            values = try items.map { (item) throws(PHPredicateError) -> PredicateValue in
                guard case .value(let value) = item else {
                    throw unsupported("aggregates may only hold constants", "\(item)", position)
                }
                return value
            }
        default:
            throw unsupported("expected a list of values", "\(operand)", position)
        }
        return try values.map { (value) throws(PHPredicateError) in try convert(value, kind: kind, position: position) }
    }

    /// A constant as the store compares it with a field of this kind.
    private func convert(_ value: PredicateValue, kind: FetchEntity.Key, position: Int) throws(PHPredicateError) -> StoreValue {
        if case .null = value { return .null }
        // SQLite takes bound text and text given to functions up to the first NUL: 'a\0b' would
        // be fetched as 'a' while evaluate(with:) compares it whole.
        if case .string(let text) = value, text.utf8.contains(0) {
            throw unsupported("a string with a NUL character can't be fetched", "\(value)", position)
        }
        switch kind {
        case .identity:
            switch value {
            case .string(let identifier), .object(let identifier): return .text(identifier)
            default: throw unsupported("an identifier must be a string or an object", "\(value)", position)
            }
        case .field(_, let valueKind):
            switch (valueKind, value) {
            case (.date, .date(let date)): return .real(date.timeIntervalSince1970)
            case (.date, .double(let seconds)): return .real(seconds)
            case (.date, .int(let seconds)): return .real(Double(seconds))
            case (.integer, .int(let number)), (.bool, .int(let number)): return .integer(number)
            case (.integer, .double(let number)), (.double, .double(let number)), (.bool, .double(let number)):
                return .real(number)
            case (.double, .int(let number)): return .real(Double(number))
            case (.integer, .bool(let flag)), (.bool, .bool(let flag)), (.double, .bool(let flag)):
                return .integer(flag ? 1 : 0)
            case (.string, .string(let text)): return .text(text)
            default:
                throw unsupported("value of the wrong type for this key (expected \(valueKind))", "\(value)", position)
            }
        }
    }

    /// An identifier (or object) as a UUID for comparison with the uuid column; a value that
    /// isn't one of this entity's identifiers can match nothing.
    private func identityValue(_ value: StoreValue) -> StoreValue {
        guard case .text(let identifier) = value else { return value }
        return .text(entity.uuid(fromIdentifier: identifier) ?? "not-an-identifier:\(identifier)")
    }
}

extension StoreValue {
    /// A string constant folded as `[c]`/`[d]` ask (as `ph_text_fold` folds the column); other
    /// values as they are.
    func folded(_ options: StoreTextOptions) -> StoreValue {
        guard case .text(let text) = self else { return self }
        return .text(TextMatching.fold(text, options: options))
    }
}

extension FetchEntity.Key {
    var isString: Bool {
        switch self {
        case .field(_, .string), .identity: true
        default: false
        }
    }

    var isIdentity: Bool {
        if case .identity = self { return true }
        return false
    }
}

extension PredicateOperator {
    var flipped: PredicateOperator? {
        switch self {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: nil
        }
    }

    var storeComparison: StoreComparison? {
        switch self {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        default: nil
        }
    }

    var textTest: StoreTextTest {
        switch self {
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .like: .like
        default: .contains
        }
    }
}

extension PredicateStringOptions {
    var store: StoreTextOptions { StoreTextOptions(rawValue: rawValue) }
}
