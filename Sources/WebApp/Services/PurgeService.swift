import AuthCore
import Logging
import ServiceLifecycle
import WalletCore

/// Deletes what has expired (sessions, codes, wallet form keys older than a day) every
/// `interval` in the background, from start-up until a graceful shutdown.
struct PurgeService: Service {
    let signIn: SignInService
    let wallet: Wallet
    let interval: Duration
    let logger: Logger

    func run() async throws {
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
