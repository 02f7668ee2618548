import Foundation
import GRDB

/// Failures of the store, mapped to `PHPhotosError` by the Photos module.
package struct StoreError: Error, Sendable, CustomStringConvertible {
    package enum Code: Sendable, Equatable {
        /// The database was written by a newer version of this software.
        case newerSchema
        /// The library folder or database can't be opened or created.
        case cannotOpen
        /// The library folder holds a library (originals, renders, its identifier) but its
        /// database is missing or empty: opening would start an empty library beside them.
        case missingDatabase
        /// An object named by a change does not exist (or was deleted).
        case missingObject
        /// A change is not allowed (editing a smart album, a cycle of folders, ...).
        case notAllowed
        /// A file could not be moved into or out of the library.
        case fileOperation
        /// The database failed; `message` has its text.
        case database
        /// The database can't be reached now (its server away or restarting, the connection
        /// lost, a timeout): nothing was done, and the same call may work later.
        case unavailable
        /// A write to a library opened read-only (``LibraryDatabase/open(at:gazetteer:readOnly:)``).
        case readOnly
        /// The disk is full (SQLite's `SQLITE_FULL`, or `ENOSPC` writing a file).
        case diskFull
        /// What was asked needs another database engine (a backup file of a PostgreSQL library).
        case unsupported
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }

    /// Runs `body`, passing a `StoreError` through and wrapping any other error (SQLite's) as
    /// `.database` with "`failure`: error".
    package static func mapping<T>(_ failure: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            throw StoreError(.diskFull, "\(failure): the disk is full (\(error))")
        } catch {
            throw StoreError(.database, "\(failure): \(error)")
        }
    }
}
