import Logging
import ServiceLifecycle

/// A database that needs nothing running (the SQLite file) as a service: it waits for the
/// graceful shutdown and then closes the database. It is the group's first service, so it is
/// shut down last: after the HTTP server answered its last request and the purge loop stopped.
struct DatabaseService: Service {
    /// For the log line if closing fails.
    let name: String
    let close: @Sendable () throws -> Void
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try close()
        } catch {
            logger.error("Closing the database failed", metadata: ["database": "\(name)", "error": "\(error)"])
        }
    }
}
