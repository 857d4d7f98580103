import Logging
import ServiceLifecycle

/// The database as a service: opened when the app is assembled, closed when the graceful
/// shutdown reaches it. It is the group's first service, so it is shut down last: after the
/// HTTP server answered its last request and the purge loop stopped.
struct DatabaseService: Service {
    let storage: Storage
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try await storage.close()
        } catch {
            logger.error("Closing the database failed", metadata: ["error": "\(error)"])
        }
    }
}
