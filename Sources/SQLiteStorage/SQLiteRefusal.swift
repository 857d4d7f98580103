import AuthCore
import GRDB

/// SQLite's refusals as the errors the rest of the app answers, said once for every store:
///
/// - busy (another writer kept the database locked past the busy timeout), locked, or full
///   (the disk or `max_page_count`): ``AuthCore/StorageUnavailable``, a 503 with `Retry-After`,
///   as a PostgreSQL timeout is; nothing was written and trying again later may work.
/// - a CHECK constraint: ``AuthCore/SchemaCheckFailed``, a 422.
///
/// Anything else passes unchanged (an unexplained 500).
enum SQLiteRefusal {
    static func translated(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_CHECK { return SchemaCheckFailed(error.description) }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StorageUnavailable("SQLite stayed locked by another writer past the busy timeout.")
        case .SQLITE_FULL:
            return StorageUnavailable("SQLite could not grow the database: the disk is full.")
        default:
            return error
        }
    }
}
