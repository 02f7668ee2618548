/// Writes a predicate format from fuzz input bytes, each byte a choice in the grammar a PHAsset
/// fetch accepts: keys of the asset entity with values of their kind (and sometimes of another
/// kind), every comparison operator with and without string options, BETWEEN and IN with
/// aggregates, `&` on integer keys, flipped sides, AND/OR/NOT nesting, and the edge values of
/// each kind (the seeded rows' own values, Int64's ends, dates before 1970 and past 2038,
/// wildcard patterns, strings that differ only in case or diacritics).
///
/// Text mutated at random rarely parses (about 1 input in 20 did, 1 in 200 reached the fetch),
/// so inputs starting with byte 0x01 (never valid in a format) go through this writer instead:
/// nearly all of them reach the SQL compiler and the in-memory comparison.
struct PredicateWriter {
    enum Kind: CaseIterable { case integer, double, bool, date, string }

    private var bytes: ArraySlice<UInt8>
    private let identifiers: [String]

    init(_ bytes: ArraySlice<UInt8>, identifiers: [String]) {
        self.bytes = bytes
        self.identifiers = identifiers
    }

    /// The next choice among `count`; 0 once the input is used up.
    private mutating func choose(_ count: Int) -> Int {
        guard let byte = bytes.popFirst() else { return 0 }
        return Int(byte) % count
    }

    private mutating func pick<T>(_ options: [T]) -> T { options[choose(options.count)] }

    mutating func predicate(depth: Int = 0) -> String {
        switch depth >= 4 ? 0 : choose(12) {
        case 0 ... 5: return comparison()
        case 6: return "(\(predicate(depth: depth + 1)) AND \(predicate(depth: depth + 1)))"
        case 7: return "(\(predicate(depth: depth + 1)) OR \(predicate(depth: depth + 1)))"
        case 8: return "NOT (\(predicate(depth: depth + 1)))"
        case 9: return "!\(predicate(depth: depth + 1))"
        case 10: return pick(["TRUEPREDICATE", "FALSEPREDICATE"])
        default: return "\(predicate(depth: depth + 1)) && \(predicate(depth: depth + 1)) || \(predicate(depth: depth + 1))"
        }
    }

    static let keys: [(String, Kind)] = [
        ("mediaType", .integer), ("mediaSubtypes", .integer), ("mediaSubtype", .integer), ("pixelWidth", .integer),
        ("pixelHeight", .integer), ("duration", .double), ("creationDate", .date), ("modificationDate", .date),
        ("isFavorite", .bool), ("favorite", .bool), ("isHidden", .bool), ("hidden", .bool),
        ("burstIdentifier", .string), ("localIdentifier", .string), ("SELF", .string),
    ]
    static let operators = [
        "==", "!=", "<", "<=", ">", ">=", "=<", "=>", "<>", "=", "BETWEEN", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE",
    ]

    private mutating func comparison() -> String {
        let (key, kind) = pick(Self.keys)
        var lhs = key
        if kind == .integer, choose(4) == 0 { lhs = "(\(key) & \(value(.integer)))" }
        let op = pick(Self.operators)
        let options = pick(["", "", "", "[c]", "[d]", "[cd]"])
        let rhs: String
        switch op {
        case "BETWEEN": rhs = "{\(value(kind)), \(value(kind))}"
        case "IN": rhs = "{" + (0 ..< choose(5)).map { _ in value(kind) }.joined(separator: ", ") + "}"
        default: rhs = value(kind)
        }
        return choose(8) == 0 ? "\(rhs) \(op)\(options) \(lhs)" : "\(lhs) \(op)\(options) \(rhs)"
    }

    private mutating func value(_ kind: Kind) -> String {
        if choose(10) == 0 { return pick(["nil", "NULL"]) }
        switch choose(6) == 0 ? pick(Kind.allCases) : kind {
        case .integer:
            if choose(3) == 0 { return String(Int(Int8(truncatingIfNeeded: choose(256)))) }
            return pick([
                "0", "1", "2", "3", "-1", "8", "10", "4000", "3000", "12000", "1920", "2147483647", "2147483648", "1099511627776",
                "-9223372036854775808", "9223372036854775807", "0x7FFFFFFFFFFFFFFF", "0b1010", "0o17", "\(1 << 40)",
            ])
        case .double:
            return pick(["0.0", "0.5", "12.5", "0.001", "3600", "3600.0000001", "-0.0", "1e308", "-1e308", "4.9e-324", "1599999999.5"])
        case .bool:
            return pick(["YES", "NO", "TRUE", "FALSE", "yes", "false"])
        case .date:
            // Seconds since 2001 (CAST's reference) of the rows' dates and their neighbours.
            let seconds = pick([
                "621692800", "621692800.5", "621692799.999", "-978307200", "-1924992000", "3124137600", "1169176448",
                "256260690.123", "0", "-1e15", "1e15",
            ])
            return "CAST(\(seconds), \"NSDate\")"
        case .string:
            if !identifiers.isEmpty, choose(4) == 0 {
                let identifier = pick(identifiers)
                return "'" + pick([identifier, String(identifier.prefix(8)), String(identifier.suffix(7)), identifier.lowercased()]) + "'"
            }
            return pick([
                "'Café-1'", "'cafe-1'", "'CAFE-1'", "'café'", "'CAFE'", "''", "'*'", "'?'", "'?afe*'", "'*-1'", "'C*'",
                #"'Ünïcödé ✓ \'quoted\' "x"'"#, #"'ünïcödé'"#, #"'100%_*?\\'"#, "'%'", "'_'", "'1'", "'/L0/001'",
                #"'\u00e9'"#, "'e\u{301}'",
            ])
        }
    }
}
