import Foundation
import GRDB
import GRDBSQLite

/// `photos_bm25(searchIndex, length)`: FTS5's `bm25` (k1 1.2, b 0.75, every column weighing
/// 1), with each document's length in words given by the query (`asset.searchLength`, read
/// from the index a search looks each match up in) rather than read from the full-text
/// table's `docsize` table: that lookup, one per match, is 65 of the 70 ms `bm25` takes for
/// 82,547 matches of 1,000,000 (`sqlite3`, 2026-12-04); counting the matched words takes 5.
/// A length of 0 or `NULL` (an index written before v26 filled it) is read from `docsize`,
/// as `bm25` reads it.
///
/// The length is the number of words ``SearchText/document(_:)`` joined, which is the count
/// FTS5's `unicode61` tokenizer makes of the same text for every script whose words hold no
/// combining marks (`unicode61` splits at marks, `SearchText` keeps them in the word): there a
/// rank differs from `bm25`'s, the matches stay the same.
///
/// Registered on every SQLite connection (``ConnectionFunctions``).
enum SearchRank {
    static let functionName = "photos_bm25"

    static func register(in db: Database) throws {
        guard let api = fts5API(db) else { throw StoreError(.database, "SQLite was built without FTS5") }
        let status = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), functionName, nil, rank, nil)
        guard status == SQLITE_OK else { throw StoreError(.database, "Registering \(functionName) failed (\(status))") }
    }

    /// The `fts5_api` of a connection (`SELECT fts5(?1)` with a pointer bound, as FTS5's
    /// documentation says).
    private static func fts5API(_ db: Database) -> UnsafePointer<fts5_api>? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db.sqliteConnection, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        var api: UnsafePointer<fts5_api>?
        withUnsafeMutablePointer(to: &api) { pointer in
            _ = sqlite3_bind_pointer(statement, 1, pointer, "fts5_api_ptr", nil)
            _ = sqlite3_step(statement)
        }
        return api
    }

    private static let k1 = 1.2
    private static let b = 0.75

    /// What a query's every row shares, made at its first row and kept as FTS5's auxiliary
    /// data: the average length and each phrase's inverse document frequency.
    private static func shared(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer?) -> UnsafeMutablePointer<Double>? {
        if let kept = api.pointee.xGetAuxdata(context, 0) { return kept.assumingMemoryBound(to: Double.self) }
        var rows: sqlite3_int64 = 0, tokens: sqlite3_int64 = 0
        guard api.pointee.xRowCount(context, &rows) == SQLITE_OK, api.pointee.xColumnTotalSize(context, -1, &tokens) == SQLITE_OK
        else { return nil }
        let phrases = Int(api.pointee.xPhraseCount(context))
        guard let memory = malloc(MemoryLayout<Double>.stride * (phrases + 1)) else { return nil }
        let values = memory.assumingMemoryBound(to: Double.self)
        values[0] = rows > 0 ? Double(tokens) / Double(rows) : 1
        for phrase in 0..<phrases {
            var hits: sqlite3_int64 = 0
            let status = withUnsafeMutablePointer(to: &hits) { pointer in
                api.pointee.xQueryPhrase(context, Int32(phrase), pointer) { _, _, counter in
                    counter?.assumingMemoryBound(to: sqlite3_int64.self).pointee += 1
                    return SQLITE_OK
                }
            }
            guard status == SQLITE_OK else {
                free(memory)
                return nil
            }
            let idf = log((Double(rows) - Double(hits) + 0.5) / (Double(hits) + 0.5))
            values[phrase + 1] = idf > 0 ? idf : 1e-6
        }
        guard api.pointee.xSetAuxdata(context, memory, { free($0) }) == SQLITE_OK else { return nil }
        return values
    }

    private static let rank: fts5_extension_function = { api, context, result, argumentCount, arguments in
        guard let api, let values = shared(api, context) else {
            sqlite3_result_error(result, "\(SearchRank.functionName): the index could not be read", -1)
            return
        }
        var length = argumentCount > 0 ? sqlite3_value_double(arguments?[0]) : 0
        if length <= 0 {
            var tokens: Int32 = 0
            if api.pointee.xColumnSize(context, -1, &tokens) == SQLITE_OK { length = Double(tokens) }
        }
        let phrases = Int(api.pointee.xPhraseCount(context))
        var instances: Int32 = 0
        guard api.pointee.xInstCount(context, &instances) == SQLITE_OK else {
            sqlite3_result_error(result, "\(SearchRank.functionName): the matches could not be read", -1)
            return
        }
        let score = withUnsafeTemporaryAllocation(of: Double.self, capacity: max(phrases, 1)) { frequencies in
            frequencies.initialize(repeating: 0)
            for instance in 0..<instances {
                var phrase: Int32 = 0, column: Int32 = 0, offset: Int32 = 0
                if api.pointee.xInst(context, instance, &phrase, &column, &offset) == SQLITE_OK, Int(phrase) < phrases {
                    frequencies[Int(phrase)] += 1
                }
            }
            let norm = k1 * (1 - b + b * length / values[0])
            var score = 0.0
            for phrase in 0..<phrases {
                let frequency = frequencies[phrase]
                score += values[phrase + 1] * (frequency * (k1 + 1)) / (frequency + norm)
            }
            return score
        }
        sqlite3_result_double(result, -score)
    }
}
