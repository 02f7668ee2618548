/// A `Range: bytes=…` request header (RFC 9110 §14.1.2, §14.2) and the part of a file it asks for.
///
/// ```swift
/// let range = ByteRange(header: "bytes=-500")   // the last 500 bytes
/// range?.resolve(size: 2_000)                   // .partial(1500...1999)
/// ```
///
/// A header this type can't read (another unit, a malformed range set) is `nil`: the server then
/// ignores it and answers the whole file, as RFC 9110 says. Several ranges are read but answered
/// with the whole file too (``resolve(size:)``): a server may ignore `Range`, and one 200 is
/// cheaper for both sides than a `multipart/byteranges` body for what clients ask (browsers and
/// video players ask for one range at a time).
struct ByteRange: Equatable, Sendable {
    /// One range of a range set.
    enum Spec: Equatable, Sendable {
        /// `first-last` (`last` clamped to the file's end later) or `first-` (to the end).
        case from(Int64, through: Int64?)
        /// `-count`: the last `count` bytes.
        case suffix(Int64)
    }

    /// What a range set asks of a file of a given size.
    enum Resolution: Equatable, Sendable {
        /// The whole file, with 200: no usable range (several ranges, or a suffix of an empty file).
        case full
        /// These bytes, with 206.
        case partial(ClosedRange<Int64>)
        /// Nothing the file has, with 416.
        case unsatisfiable
    }

    let specs: [Spec]

    /// The range set of a `Range` header, or `nil` when it isn't a valid `bytes` range set. The
    /// unit is case-insensitive; spaces and tabs around ranges and empty list elements are
    /// allowed (the `#` list rule of RFC 9110 §5.6.1). Positions too large for 64 bits are read
    /// as the largest position, so a range past any file's end is unsatisfiable, not malformed.
    init?(header: String) {
        let utf8 = Substring(header).utf8
        guard let equals = utf8.firstIndex(of: UInt8(ascii: "=")),
            utf8[..<equals].elementsEqual("bytes".utf8, by: { $0 | 0x20 == $1 })
        else { return nil }
        var specs: [Spec] = []
        for element in utf8[utf8.index(after: equals)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let trimmed = element.drop(while: Self.isSpace).reversed().drop(while: Self.isSpace).reversed()
            if trimmed.isEmpty { continue }
            guard let spec = Self.spec(Array(trimmed)) else { return nil }
            specs.append(spec)
        }
        guard !specs.isEmpty else { return nil }
        self.specs = specs
    }

    init(_ specs: [Spec]) {
        self.specs = specs
    }

    /// The bytes to send of a file of `size` bytes (RFC 9110 §14.1.1: a range is satisfiable
    /// when it starts before the end, a suffix when it is not empty).
    func resolve(size: Int64) -> Resolution {
        guard specs.count == 1 else { return .full }
        switch specs[0] {
        case let .from(first, last):
            guard first < size else { return .unsatisfiable }
            return .partial(first...min(last ?? Int64.max, size - 1))
        case let .suffix(count):
            guard count > 0 else { return .unsatisfiable }
            guard size > 0 else { return .full }
            return .partial(max(0, size - count)...(size - 1))
        }
    }

    /// `first-last`, `first-` or `-count`, digits only.
    private static func spec(_ bytes: [UInt8]) -> Spec? {
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let first = bytes[..<dash], last = bytes[(dash + 1)...]
        if first.isEmpty {
            return number(last).map(Spec.suffix)
        }
        guard let start = number(first) else { return nil }
        if last.isEmpty { return .from(start, through: nil) }
        guard let end = number(last), end >= start else { return nil }
        return .from(start, through: end)
    }

    /// 1*DIGIT, saturating at `Int64.max`.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            value = overflow || carry ? Int64.max : sum
        }
        return value
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}
