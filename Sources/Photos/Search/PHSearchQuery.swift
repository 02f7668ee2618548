public import Foundation

/// A search as a person types it ("beach videos 2019", "Lisbon summer", "IMG_2041",
/// "\"happy birthday\" june"): the words to look for, and the times and kinds of asset the
/// query names.
///
/// - Words: each term must match (all of them); a quoted phrase is one term. Terms are lowered
///   and folded (`É` is `e`), and ones with no letter or digit (`*`, `-`, `^`) are dropped:
///   the search index reads every term literally, so no term is an operator.
/// - Years (`2019`, `2019-2021`; from 1826 to next year, so `2041` is a word until then),
///   months (`june`, `jun`) and seasons (`summer` is June to August; `spring`, `autumn` or
///   `fall`, `winter` alike, as in the northern hemisphere) limit the creation date: any of
///   the years, and any of the months.
/// - Kinds: `photos`, `videos`, `screenshots`, `live photos`, `panoramas`, `favorites`.
/// - A few words that only join others (`from`, `in`, `of`, `the`, `taken`...) are dropped
///   when something else is left: "videos from June" is videos of June.
///
/// Linux addition: Apple's PhotoKit has no search (the Photos app's is not public API).
public struct PHSearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// Terms every match must contain (lowered and folded), phrases with their spaces.
    public var terms: [String]
    /// Ranges of years the creation date may fall in; empty for any.
    public var years: [ClosedRange<Int>]
    /// Months (1-12) the creation date may fall in; empty for any.
    public var months: Set<Int>
    /// Media types a match may have; empty for any.
    public var mediaTypes: Set<PHAssetMediaType>
    /// Subtypes every match has.
    public var mediaSubtypes: PHAssetMediaSubtype
    /// Only favorites.
    public var favoritesOnly: Bool
    /// Whether the last term also matches words it begins, as a search box does while the
    /// person types ("lisb" finds Lisbon): true when the text ends with an unquoted word.
    public var completesLastTerm: Bool

    /// The longest query read, in UTF-8 bytes; a longer one is refused.
    public static let maximumLength = 1_000

    /// Reads `text`; throws `.invalidResource` naming the limit for a query past
    /// ``maximumLength``. Anything else reads, however odd: at worst as terms no photo has.
    public init(_ text: String, now: Date = Date()) throws(PHPhotosError) {
        let length = text.utf8.count
        guard length <= Self.maximumLength else {
            throw PHPhotosError(.invalidResource, "A search is at most \(Self.maximumLength) bytes long; this one has \(length)")
        }
        terms = []
        years = []
        months = []
        mediaTypes = []
        mediaSubtypes = []
        favoritesOnly = false
        completesLastTerm = false
        let nextYear = Calendar(identifier: .gregorian).component(.year, from: now) + 1
        var joining: [String] = []
        let tokens = Self.tokens(text)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            completesLastTerm = false
            guard !token.quoted else {
                terms.append(token.text)
                continue
            }
            let word = token.text
            let next = index < tokens.count && !tokens[index].quoted ? tokens[index].text : nil
            if word == "live", let next, ["photo", "photos"].contains(next) {
                mediaSubtypes.insert(.photoLive)
                index += 1
            } else if let years = Self.years(word, through: nextYear) {
                self.years.append(years)
            } else if let month = Self.months[word] {
                months.insert(month)
            } else if let season = Self.seasons[word] {
                months.formUnion(season)
            } else if let type = Self.mediaTypeWords[word] {
                mediaTypes.insert(type)
            } else if let subtype = Self.subtypeWords[word] {
                mediaSubtypes.insert(subtype)
            } else if Self.favoriteWords.contains(word) {
                favoritesOnly = true
            } else if Self.joiningWords.contains(word) {
                joining.append(word)
            } else {
                terms.append(word)
                completesLastTerm = index == tokens.count
            }
        }
        if text.last.map({ $0.isWhitespace || $0 == "\"" }) ?? true { completesLastTerm = false }
        // Only joining words: they are what was asked for.
        if terms.isEmpty, years.isEmpty, months.isEmpty, mediaTypes.isEmpty, mediaSubtypes.isEmpty, !favoritesOnly {
            terms = joining
        }
    }

    /// Whether the query asks nothing (every asset matches).
    public var isEmpty: Bool {
        terms.isEmpty && years.isEmpty && months.isEmpty && mediaTypes.isEmpty && mediaSubtypes.isEmpty && !favoritesOnly
    }

    public var description: String {
        var parts = terms.map { $0.contains(" ") ? "\"\($0)\"" : $0 }
        parts += years.map { $0.count == 1 ? "year \($0.lowerBound)" : "years \($0.lowerBound)-\($0.upperBound)" }
        if !months.isEmpty { parts.append("months \(months.sorted().map(String.init).joined(separator: ","))") }
        parts += mediaTypes.map(\.rawValue).sorted().map { "mediaType \($0)" }
        if !mediaSubtypes.isEmpty { parts.append("mediaSubtypes \(mediaSubtypes.rawValue)") }
        if favoritesOnly { parts.append("favorites") }
        return "<PHSearchQuery: \(parts.joined(separator: " "))>"
    }

    // MARK: Reading

    private struct Token {
        var text: String
        var quoted: Bool
    }

    /// Quoted phrases (an unclosed quote runs to the end) and the words between them, lowered
    /// and folded; words trimmed of punctuation at their ends; tokens with no letter or digit
    /// dropped.
    private static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        for (number, part) in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            let quoted = number % 2 == 1
            let words = part.split { $0.isWhitespace }.map { fold(String($0)) }
            if quoted {
                let phrase = words.filter(hasLetterOrDigit).joined(separator: " ")
                if !phrase.isEmpty { tokens.append(Token(text: phrase, quoted: true)) }
            } else {
                tokens += words.filter(hasLetterOrDigit).map { Token(text: $0, quoted: false) }
            }
        }
        return tokens
    }

    private static func fold(_ word: String) -> String {
        let folded = word.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        let edges = CharacterSet.punctuationCharacters.union(.symbols)
        return folded.trimmingCharacters(in: edges)
    }

    private static func hasLetterOrDigit(_ word: String) -> Bool {
        word.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) }
    }

    /// `2019` or `2019-2021` (or with an en dash), each 1826 (the first photograph) to `last`.
    private static func years(_ word: String, through last: Int) -> ClosedRange<Int>? {
        let parts = word.split(whereSeparator: { $0 == "-" || $0 == "\u{2013}" }).map(String.init)
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isASCII) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.allSatisfy({ (1826...last).contains($0) }), numbers[0] <= numbers[numbers.count - 1] else {
            return nil
        }
        return numbers[0]...numbers[numbers.count - 1]
    }

    private static let months: [String: Int] = {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        var months: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            months[name] = index + 1
            months[String(name.prefix(3))] = index + 1
        }
        months["sept"] = 9
        return months
    }()

    private static let seasons: [String: Set<Int>] = [
        "spring": [3, 4, 5], "summer": [6, 7, 8], "autumn": [9, 10, 11], "fall": [9, 10, 11], "winter": [12, 1, 2],
    ]

    private static let mediaTypeWords: [String: PHAssetMediaType] = [
        "photo": .image, "photos": .image, "picture": .image, "pictures": .image, "image": .image, "images": .image,
        "video": .video, "videos": .video, "movie": .video, "movies": .video, "clip": .video, "clips": .video,
    ]

    private static let subtypeWords: [String: PHAssetMediaSubtype] = [
        "screenshot": .photoScreenshot, "screenshots": .photoScreenshot, "panorama": .photoPanorama, "panoramas": .photoPanorama,
    ]

    private static let favoriteWords: Set<String> = ["favorite", "favorites", "favourite", "favourites"]

    private static let joiningWords: Set<String> = [
        "a", "an", "and", "at", "during", "from", "in", "of", "on", "the", "taken", "with", "my", "our", "all",
    ]
}
