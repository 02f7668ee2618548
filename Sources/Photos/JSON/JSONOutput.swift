import Foundation

/// How the package writes JSON for people and programs to read: the CLI's `--json` output and
/// the API's answers and live messages.
package enum JSONOutput {
    /// An encoder that sorts keys (the same object prints the same every time), leaves slashes
    /// unescaped and writes dates as ISO 8601 text (`2020-09-13T12:26:40Z`, as
    /// ``AssetJSONFields`` expects); `prettyPrinted` indents for a terminal (the CLI).
    package static func encoder(prettyPrinted: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
