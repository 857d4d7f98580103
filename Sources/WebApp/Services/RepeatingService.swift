import Logging
import ServiceLifecycle

/// Background work done every `interval`, from when the database is ready until a graceful
/// shutdown: the purge of what has expired, and the operators' health check. A round that
/// fails is logged, and the next one comes as usual.
struct RepeatingService: Service {
    /// What the work is, for the log ("Purge", "Health check").
    let name: String
    let interval: Duration
    /// The loop starts once the database is ready (migrated).
    let storage: StorageReadiness
    let logger: Logger
    let work: @Sendable () async throws -> Void

    func run() async throws {
        // A database that never got ready is the HTTP service's error to report; this loop then
        // only waits for the shutdown.
        guard (try? await storage.wait()) == true else {
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown { [self] in
            while !Task.isCancelled {
                do {
                    try await work()
                } catch {
                    logger.error("\(name) failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
