import HTTPLite
import Logging
import ServiceLifecycle

/// A deploy's first step on SIGTERM (`--shutdown-delay`): for that long, /readyz answers 503 so
/// a load balancer takes this instance out, while every request is still served, each answer
/// closing its connection. Last in the `ServiceGroup`, so shut down first: the servers close
/// their listeners and drain their requests (`--shutdown-grace`) only after it returns.
struct DrainService: Service {
    let draining: Draining
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Suspends until a graceful shutdown begins; cancelled instead, there is nothing to drain.
        guard (try? await gracefulShutdown()) != nil else { return }
        draining.begin()
        logger.info("Draining before shutdown", metadata: ["seconds": "\(delay.components.seconds)"])
        try? await Task.sleep(for: delay)
    }
}
