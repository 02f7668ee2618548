import Foundation
import GRDB

/// String tests shared by SQL (as functions registered on every connection) and by in-memory
/// predicate evaluation, so both give the same answers.
///
/// Equality compares bytes, as `NSString`'s `isEqual:` and SQL's `IS` do (no Unicode
/// normalisation). `[c]` folds case and `[d]` folds diacritics on both sides (Foundation's
/// `folding(options:locale:)` with no locale); `LIKE` takes `*` for any run of characters and
/// `?` for one character, and must match the whole string. A missing (`NULL`) string matches
/// nothing.
package enum TextMatching {
    package static func fold(_ string: String, options: StoreTextOptions) -> String {
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        return folding.isEmpty ? string : string.folding(options: folding, locale: nil)
    }

    package static func test(_ test: StoreTextTest, _ lhs: String?, _ rhs: String?, options: StoreTextOptions) -> Bool {
        guard let lhs, let rhs else { return false }
        let a = fold(lhs, options: options), b = fold(rhs, options: options)
        switch test {
        case .equal: return a.utf8.elementsEqual(b.utf8)
        case .contains: return b.isEmpty || a.contains(b)
        case .beginsWith: return a.hasPrefix(b)
        case .endsWith: return a.hasSuffix(b)
        case .like: return like(Array(a), Array(b))
        }
    }

    /// Wildcard match over characters: `*` any run, `?` exactly one.
    static func like(_ text: [Character], _ pattern: [Character]) -> Bool {
        var t = 0, p = 0
        var star = -1, mark = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) {
                t += 1
                p += 1
            } else if p < pattern.count && pattern[p] == "*" {
                star = p
                mark = t
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}

enum TextFunctions {
    static func register(in db: Database) {
        db.add(
            function: DatabaseFunction("ph_text_fold", argumentCount: 2, pure: true) { values in
                guard let text = String.fromDatabaseValue(values[0]) else { return nil as String? }
                return TextMatching.fold(text, options: StoreTextOptions(rawValue: Int.fromDatabaseValue(values[1]) ?? 0))
            })
        for test in [StoreTextTest.equal, .contains, .beginsWith, .endsWith, .like] {
            db.add(
                function: DatabaseFunction(test.rawValue, argumentCount: 3, pure: true) { values in
                    let options = StoreTextOptions(rawValue: Int.fromDatabaseValue(values[2]) ?? 0)
                    return TextMatching.test(
                        test, String.fromDatabaseValue(values[0]), String.fromDatabaseValue(values[1]),
                        options: options)
                })
        }
    }
}
