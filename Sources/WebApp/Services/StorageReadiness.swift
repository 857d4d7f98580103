import NIOConcurrencyHelpers
import ServiceLifecycle

/// The database's start-up step (``Storage/prepare``: PostgreSQL's migrations), run once however
/// many services wait for it: the HTTP server listens only after it, and the purge loop starts
/// only after it (a purge on a schema not yet migrated fails).
///
/// Waiting ends early, with nothing served, when a graceful shutdown comes first: SIGTERM
/// during a start-up that waits for an unreachable database stops the process at once.
final class StorageReadiness: Sendable {
    private let prepare: @Sendable () async throws -> Void
    private let running = NIOLockedValueBox<Task<Void, any Error>?>(nil)

    init(prepare: @escaping @Sendable () async throws -> Void) {
        self.prepare = prepare
    }

    /// Returns `true` once the database is ready, `false` if a graceful shutdown came first;
    /// throws why preparing failed.
    func wait() async throws -> Bool {
        let task = running.withLockedValue { running in
            if let running { return running }
            let prepare = self.prepare
            let task = Task { try await prepare() }
            running = task
            return task
        }
        do {
            try await cancelWhenGracefulShutdown {
                try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: {
                    task.cancel()
                }
            }
            return true
        } catch is CancellationError where Task.isShuttingDownGracefully || Task.isCancelled {
            return false
        }
    }
}
