import AuthCore
import Logging
import ServiceLifecycle
import WalletCore

/// Deletes what has expired (sessions, codes, wallet form keys older than a day) every
/// `interval` in the background, from when the database is ready until a graceful shutdown.
struct PurgeService: Service {
    let signIn: SignInService
    let wallet: Wallet
    let interval: Duration
    /// The loop starts once the database is ready (migrated).
    let storage: StorageReadiness
    let logger: Logger

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
                    let removed = try await signIn.purgeExpired() + wallet.purgeKeys()
                    if removed > 0 { logger.info("Purged expired data", metadata: ["rows": "\(removed)"]) }
                } catch {
                    logger.error("Purge failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
