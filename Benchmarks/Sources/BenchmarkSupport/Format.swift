/// Figures as the benchmarks print them; each benchmark adds its own formats in an extension.
public enum Format {
    /// A count with its thousands grouped: `1,000,000`.
    public static func count(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }
}
