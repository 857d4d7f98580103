import AuthCore
import PostgresNIO

/// PostgreSQL's refusals as the errors the rest of the app answers, like SQLite's
/// (SQLiteStorage's `SQLiteRefusal`):
///
/// - SQLSTATE 23514 (`check_violation`): ``AuthCore/SchemaCheckFailed``, a 422.
/// - class 53 (insufficient resources: disk full, out of memory, too many connections), class 08
///   (connection exception) and class 57 (operator intervention: the server shutting down), and
///   a connection refused, lost or closed under a query: ``AuthCore/StorageUnavailable``, a 503
///   with `Retry-After`, as a timeout is.
///
/// Anything else passes unchanged (an unexplained 500).
enum PostgresRefusal {
    /// The client's own words for a server it cannot reach or lost.
    static let unreachable: [PSQLError.Code] = [
        .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection,
    ]

    /// Whether `error` says the server cannot be reached (not that it refused or was slow): the
    /// client's own words, or SQLSTATE class 08 or 57.
    static func isUnreachable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        let state = error.serverInfo?[.sqlState] ?? ""
        return unreachable.contains(error.code) || state.hasPrefix("08") || state.hasPrefix("57")
    }

    static func translated(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        if isUnreachable(error) {
            return StorageUnavailable(
                "PostgreSQL cannot be reached\(error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "").")
        }
        guard let state = error.serverInfo?[.sqlState] else { return error }
        if state == "23514" {
            return SchemaCheckFailed(
                "PostgreSQL refused a value: \(error.serverInfo?[.message] ?? "a CHECK constraint failed")")
        }
        if state.hasPrefix("53") { return StorageUnavailable("PostgreSQL is out of resources (SQLSTATE \(state)).") }
        return error
    }
}
