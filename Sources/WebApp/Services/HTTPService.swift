import HTTPLite
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP server as a service: `run()` waits for the database to be ready (migrated), binds,
/// says where it listens, and serves until a
/// graceful shutdown (SIGTERM, SIGINT) or cancellation; then it stops accepting and returns once
/// the requests in flight are answered (within the server's grace period).
struct HTTPService<Responder: HTTPResponder>: Service where Responder.Context: RootRequestContext {
    let server: HTTPServer<Responder>
    /// Waited for before binding: nothing is served before the schema is up to date.
    let storage: StorageReadiness
    /// Told the bound address once the server listens; finished when `run()` ends either way.
    let listening: AsyncStream<SocketAddress>.Continuation
    let logger: Logger

    func run() async throws {
        defer { listening.finish() }
        guard try await storage.wait() else { return }  // shut down before the database was ready
        listening.yield(try await server.start())
        await withTaskCancellationOrGracefulShutdownHandler {
            await server.waitUntilStopped()
        } onCancelOrGracefulShutdown: { [server, logger] in
            logger.info("Shutting down")
            server.beginShutdown()
        }
    }
}
