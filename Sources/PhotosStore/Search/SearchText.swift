import Foundation

/// The one tokenizer of search, on both engines: text is folded (case, diacritics, width) and
/// split at every character that is not a letter or a digit, in Swift, before either engine
/// sees it. The index stores the words joined by spaces, so SQLite's `unicode61` tokenizer and
/// PostgreSQL's `simple` configuration each find exactly these words ("São Paulo" is `sao
/// paulo`, "IMG_2041.HEIC" is `img 2041 heic`, "Zoë's" is `zoe s`), and a query is split
/// the same way.
package enum SearchText {
    /// The words of `text`, folded, in order.
    package static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if wordScalars.contains(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// Letters and digits; marks left after folding (of scripts that keep them) stay in the word.
    private static let wordScalars = CharacterSet.alphanumerics

    /// The index's text for these parts: their words, each once, joined by spaces.
    package static func document(_ parts: [String]) -> String {
        var seen = Set<String>()
        var out: [String] = []
        for part in parts {
            for word in words(part) where seen.insert(word).inserted { out.append(word) }
        }
        return out.joined(separator: " ")
    }
}

/// What a search's words ask of the index: every term (a word, or a phrase of words in a
/// row), the last one also as the start of a longer word when ``prefixLast`` says so (a
/// search box searches as the person types: "lisb" finds Lisbon).
package struct SearchMatch: Sendable, Hashable {
    /// Each term's words, already as ``SearchText/words(_:)`` splits them.
    package var terms: [[String]]
    package var prefixLast: Bool

    /// `terms` split into words; terms with no word are dropped.
    package init(terms: [String], prefixLast: Bool) {
        self.terms = terms.map(SearchText.words).filter { !$0.isEmpty }
        self.prefixLast = prefixLast
    }

    package var isEmpty: Bool { terms.isEmpty }

    /// An FTS5 query: each term a quoted phrase (its words hold only letters and digits, so
    /// nothing in them is FTS5 syntax), joined by FTS5's implicit AND.
    var fts5: String {
        terms.enumerated().map { index, words in
            let phrase = "\"" + words.joined(separator: " ") + "\""
            return prefixLast && index == terms.count - 1 ? phrase + " *" : phrase
        }.joined(separator: " ")
    }

    /// A `tsquery`: each word a quoted lexeme, a phrase's words joined by `<->`, terms by `&`.
    var tsquery: String {
        terms.enumerated().map { index, words in
            let lexemes = words.enumerated().map { position, word in
                let last = prefixLast && index == terms.count - 1 && position == words.count - 1
                return "'\(word)'" + (last ? ":*" : "")
            }
            return lexemes.count == 1 ? lexemes[0] : "(" + lexemes.joined(separator: " <-> ") + ")"
        }.joined(separator: " & ")
    }
}

/// The search index as a fetch joins it: the matching assets, each with its rank, lower first.
enum SearchIndex {
    /// The `FROM` of a search: the matches first, each asset looked up by its id, `hint` naming
    /// the index to look it up in (``AssetQuery``).
    ///
    /// - SQLite: the full-text table `CROSS JOIN` the assets, so SQLite can't hand an asset's
    ///   id to the full-text table, which it did for a date-narrowed search, running the match
    ///   once per asset of the year (20 s for "france 2019" on 1,000,000 assets). The rank
    ///   (``rank``) is read in the same statement, as FTS5 computes it for the row at hand.
    /// - PostgreSQL: the matching documents with their `ts_rank` as `found`; with `+` the
    ///   planner looks each asset up by the document's id.
    static func joiningAssets(_ match: SearchMatch, hint: StoreSQL) -> StoreSQL {
        .either(
            sqlite: "searchIndex CROSS JOIN asset\(hint) ON asset.id = searchIndex.rowid AND searchIndex MATCH \(match.fts5)",
            postgres: """
                asset\(hint) JOIN (SELECT assetID, \(postgresRank) AS rank FROM searchDocument, \
                to_tsquery('simple', \(match.tsquery)) AS query WHERE vector @@ query) AS found ON asset.id = +found.assetID
                """)
    }

    /// PostgreSQL's rank of a document (`vector`) for the search's `query`, lower first.
    static let postgresRank: StoreSQL = "-ts_rank(vector, query)"

    /// A match's rank, lower first: FTS5's `bm25` with the length the asset's index holds
    /// (``SearchRank``), PostgreSQL's `ts_rank` negated.
    static let rank: StoreSQL = .either(sqlite: "\(unescaped: SearchRank.functionName)(searchIndex, asset.searchLength)", postgres: "found.rank")
}

/// A search's match as ``AssetQuery/searchInRankOrder`` reads it, and the search's natural
/// order (``AssetQuery``'s `orderTerms`) as SQLite sorts it: rank ascending, then the
/// creation date newest first (`NULL`, SQLite's smallest value, last), then the id.
package struct RankedMatch: Sendable {
    package let id: Int64
    package let rank: Double
    package let creationDate: Double?

    package init(id: Int64, rank: Double, creationDate: Double?) {
        self.id = id
        self.rank = rank
        self.creationDate = creationDate
    }

    package init(_ row: any ColumnReading) {
        self.init(id: row.int64(0), rank: row.double(1), creationDate: row.optionalDouble(2))
    }

    /// The ids in the search's order, compared as tuples (rank; the date negated, a missing
    /// one as +∞, so newest first and no date last; the id): 12 → 10 ms for 98,000 matches
    /// against a comparator matching optionals. From ``sortedInHalvesFrom`` matches, the two
    /// halves of the array are sorted at once and merged: Swift's sort took ~100 ms of a
    /// search of 833,068 matches, on one core while the other waited.
    static func sorted(_ matches: [RankedMatch]) -> [Int64] {
        var keys = matches.map { ($0.rank, -($0.creationDate ?? -.infinity), $0.id) }
        guard keys.count >= sortedInHalvesFrom else {
            keys.sort { $0 < $1 }
            return keys.map(\.2)
        }
        let middle = keys.count / 2
        keys.withUnsafeMutableBufferPointer { buffer in
            let halves = SortedHalves(buffer: buffer, middle: middle)
            DispatchQueue.concurrentPerform(iterations: 2) { half in halves.sort(half) }
        }
        // The ids are unique: no two keys are equal, so the merge's order is the sort's.
        var ids: [Int64] = []
        ids.reserveCapacity(keys.count)
        var left = 0, right = middle
        while left < middle, right < keys.count {
            if keys[right] < keys[left] {
                ids.append(keys[right].2)
                right += 1
            } else {
                ids.append(keys[left].2)
                left += 1
            }
        }
        ids += keys[left..<middle].map(\.2)
        ids += keys[right...].map(\.2)
        return ids
    }

    /// How many matches ``sorted(_:)`` sorts in two halves at once.
    static let sortedInHalvesFrom = 20_000
}

/// The two halves of ``RankedMatch/sorted(_:)``'s keys, each sorted by one thread: they share
/// no element.
private struct SortedHalves: @unchecked Sendable {
    // @unchecked Sendable: each thread sorts only its half of the buffer, which outlives them.
    let buffer: UnsafeMutableBufferPointer<(Double, Double, Int64)>
    let middle: Int

    func sort(_ half: Int) {
        let range = half == 0 ? 0..<middle : middle..<buffer.count
        var part = UnsafeMutableBufferPointer(rebasing: buffer[range])
        part.sort { $0 < $1 }
    }
}
