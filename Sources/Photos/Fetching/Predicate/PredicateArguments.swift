import Foundation

/// An object that a predicate argument stands for by its identifier: `SELF == %@`,
/// `SELF IN %@`. `PHObject` conforms; such an argument becomes `.object(localIdentifier:)`.
protocol PredicateObjectArgument {
    var predicateLocalIdentifier: String { get }
}

/// A collection that a predicate argument stands for by its elements: `SELF IN %@` with a
/// `PHFetchResult`. Each element is converted like any other argument.
protocol PredicateArrayArgument {
    var predicateArrayElements: [Any] { get }
}

/// A format specifier, by the kind of argument it takes.
///
/// Length modifiers are accepted and ignored, since Swift arguments carry their own types:
/// `%d %i %u %x %X %o` with `h hh l ll q z t j`, and `%f %F %e %E %g %G %a %A` with `l L`.
enum PredicateFormatSpecifier: Sendable, Equatable {
    /// `%@`: any supported argument (see ``PredicateArgumentConversion/value(of:)``).
    case object
    /// `%K`: a string naming a key path.
    case key
    /// `%s`: a string (or a C string pointer).
    case cString
    /// `%d` and friends: an integer, a `Bool`, an `NSNumber`, or an integer-backed enum or option set.
    case integer
    /// `%f` and friends: any number.
    case float

    init?(modifier: String, conversion: Unicode.Scalar) {
        switch conversion {
        case "@", "K", "s":
            guard modifier.isEmpty else { return nil }
            self = conversion == "@" ? .object : conversion == "K" ? .key : .cString
        case "d", "i", "u", "x", "X", "o", "D", "U", "O":
            guard ["", "h", "hh", "l", "ll", "q", "z", "t", "j"].contains(modifier) else { return nil }
            self = .integer
        case "f", "F", "e", "E", "g", "G", "a", "A":
            guard ["", "l", "L"].contains(modifier) else { return nil }
            self = .float
        default:
            return nil
        }
    }

    fileprivate var expectation: String {
        switch self {
        case .object: "a number, string, date, array, object or nil"
        case .key: "a key path string"
        case .cString: "a string"
        case .integer: "an integer"
        case .float: "a number"
        }
    }
}

/// The arguments of one format, consumed left to right as specifiers appear.
struct PredicateArgumentList {
    enum Bound {
        case key(String)
        case value(PredicateValue)
    }

    private let arguments: [Any]
    private var nextIndex = 0

    init(_ arguments: [Any]) {
        self.arguments = arguments
    }

    /// Takes the next argument for `specifier`, written `written` at `position`. Extra
    /// arguments left over at the end are ignored, as on Apple platforms.
    mutating func bind(
        _ specifier: PredicateFormatSpecifier, written: String, position: Int, format: String
    ) -> Result<Bound, PHPredicateError> {
        guard nextIndex < arguments.count else {
            return .failure(
                PHPredicateError(
                    message: "missing argument for format specifier", token: written, position: position,
                    format: format))
        }
        let argument = arguments[nextIndex]
        nextIndex += 1
        let bound: Bound?
        switch specifier {
        case .object: bound = PredicateArgumentConversion.value(of: argument).map(Bound.value)
        case .key: bound = PredicateArgumentConversion.string(of: argument).map(Bound.key)
        case .cString: bound = PredicateArgumentConversion.string(of: argument).map { .value(.string($0)) }
        case .integer: bound = PredicateArgumentConversion.integer(of: argument).map { .value(.int($0)) }
        case .float: bound = PredicateArgumentConversion.double(of: argument).map { .value(.double($0)) }
        }
        if let bound { return .success(bound) }
        let typeName = PredicateArgumentConversion.unwrapped(argument).map { "\(Swift.type(of: $0))" } ?? "nil"
        return .failure(
            PHPredicateError(
                message: "wrong argument type for format specifier: argument \(nextIndex) is \(typeName), "
                    + "\(written) expects \(specifier.expectation)",
                token: written, position: position, format: format))
    }
}

/// Converts Swift and Foundation values passed as format arguments to ``PredicateValue``.
enum PredicateArgumentConversion {
    /// The value of a `%@` argument, or `nil` when its type isn't supported.
    ///
    /// | Argument | Value |
    /// |---|---|
    /// | `nil`, `Optional.none`, `NSNull` | `.null` |
    /// | `Bool` | `.bool` |
    /// | `Int`, `Int8`...`Int64`, `UInt`...`UInt64` (up to `Int64.max`) | `.int` |
    /// | `Double`, `Float`, `CGFloat` | `.double` |
    /// | `NSNumber` | by `objCType`: `c` (how corelibs stores `Bool`) `.bool`, `f`/`d` `.double`, else `.int` |
    /// | `String`, `Substring`, `Character`, `NSString` | `.string` |
    /// | `Date`, `NSDate` | `.date` |
    /// | ``PredicateObjectArgument`` (`PHObject`) | `.object(localIdentifier:)` |
    /// | ``PredicateArrayArgument`` (`PHFetchResult`), arrays, sets, `NSArray`, `NSSet` | `.array` |
    /// | `RawRepresentable` with an integer raw value (`PHAssetMediaType.image`, option sets) | `.int` |
    static func value(of argument: Any) -> PredicateValue? {
        guard let argument = unwrapped(argument) else { return .null }
        if argument is NSNull { return .null }
        if let object = argument as? any PredicateObjectArgument {
            return .object(localIdentifier: object.predicateLocalIdentifier)
        }
        if let collection = argument as? any PredicateArrayArgument {
            return array(collection.predicateArrayElements)
        }
        if type(of: argument) is NSNumber.Type, let number = argument as? NSNumber {
            return value(of: number)
        }
        if let bool = argument as? Bool { return .bool(bool) }
        if let integer = argument as? any BinaryInteger {
            return Int64(exactly: integer).map(PredicateValue.int)
        }
        if let float = argument as? any BinaryFloatingPoint { return .double(Double(float)) }
        if let string = string(of: argument) { return .string(string) }
        if let character = argument as? Character { return .string(String(character)) }
        if let date = argument as? Date { return .date(date) }
        if let elements = argument as? [Any] { return array(elements) }
        if let set = argument as? Set<AnyHashable> { return array(Array(set)) }
        if let set = argument as? NSSet { return array(set.allObjects) }
        if let raw = integerRawValue(of: argument) { return .int(raw) }
        return nil
    }

    /// The argument of `%d` and friends.
    static func integer(of argument: Any) -> Int64? {
        guard let argument = unwrapped(argument) else { return nil }
        if type(of: argument) is NSNumber.Type, let number = argument as? NSNumber {
            switch value(of: number) {
            case .bool(let bool): return bool ? 1 : 0
            case .int(let int): return int
            default: return nil
            }
        }
        if let bool = argument as? Bool { return bool ? 1 : 0 }
        if let integer = argument as? any BinaryInteger { return Int64(exactly: integer) }
        return integerRawValue(of: argument)
    }

    /// The argument of `%f` and friends: any number.
    static func double(of argument: Any) -> Double? {
        guard let argument = unwrapped(argument) else { return nil }
        if type(of: argument) is NSNumber.Type, let number = argument as? NSNumber {
            return number.doubleValue
        }
        if let float = argument as? any BinaryFloatingPoint { return Double(float) }
        if argument is Bool { return nil }
        if let integer = argument as? any BinaryInteger { return Double(integer) }
        return nil
    }

    /// The argument of `%K` and `%s`: a string, or for `%s` a C string pointer.
    static func string(of argument: Any) -> String? {
        guard let argument = unwrapped(argument) else { return nil }
        if type(of: argument) is NSNumber.Type { return nil }
        if let string = argument as? String { return string }
        if let substring = argument as? Substring { return String(substring) }
        if let pointer = argument as? UnsafePointer<CChar> { return String(cString: pointer) }
        if let pointer = argument as? UnsafeMutablePointer<CChar> { return String(cString: pointer) }
        return nil
    }

    /// The argument with any levels of `Optional` and `AnyHashable` (set elements) removed;
    /// `nil` for `Optional.none`.
    static func unwrapped(_ argument: Any) -> Any? {
        var current = argument
        while true {
            if let optional = current as? any PredicateOptionalArgument {
                guard let wrapped = optional.wrappedArgument else { return nil }
                current = wrapped
            } else if type(of: current) == AnyHashable.self, let hashable = current as? AnyHashable {
                current = hashable.base
            } else {
                return current
            }
        }
    }

    private static func value(of number: NSNumber) -> PredicateValue? {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        case "Q", "L", "I", "S", "C":
            return Int64(exactly: number.uint64Value).map(PredicateValue.int)
        default: return .int(number.int64Value)
        }
    }

    private static func array(_ elements: [Any]) -> PredicateValue? {
        var values: [PredicateValue] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = value(of: element) else { return nil }
            values.append(value)
        }
        return .array(values)
    }

    private static func integerRawValue(of argument: Any) -> Int64? {
        guard let raw = argument as? any RawRepresentable,
            let integer = raw.rawValue as? any BinaryInteger
        else { return nil }
        return Int64(exactly: integer)
    }
}

/// Lets ``PredicateArgumentConversion`` see through `Optional` values boxed in `Any`.
protocol PredicateOptionalArgument {
    var wrappedArgument: Any? { get }
}

extension Optional: PredicateOptionalArgument {
    var wrappedArgument: Any? { map { $0 as Any } }
}
