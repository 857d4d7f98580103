import AuthCore
import Foundation
import HTTPLite
import HTTPTypes
import Prometheus

/// What a load balancer and a monitoring system ask: `GET /healthz` (the process answers),
/// `GET /readyz` (and its database does), `GET /metrics` (Prometheus text format). Mounted
/// beside the pages, without sessions or CSRF cookies, so probes leave nothing behind.
struct OpsController: Sendable {
    /// Throws unless the database answers.
    let ping: @Sendable () async throws -> Void
    /// On from SIGTERM (``DrainService``): the instance is going, whatever its database says.
    let draining: Draining
    let registry: PrometheusCollectorRegistry

    /// The paths answered, exactly: `/metrics/` or `/metrics//` is not `/metrics`, so a proxy
    /// rule that keeps `/metrics` inside cannot be walked around with another spelling.
    static let paths: Set<String> = ["/healthz", "/readyz", "/metrics"]

    func register(on router: Router<AppContext>) {
        router.add(middleware: ExactPathsOnly(paths: Self.paths))
        router.get("/healthz", use: healthz)
        router.get("/readyz", use: readyz)
        router.get("/metrics", use: metrics)
    }

    @Sendable func healthz(_ request: Request, _ context: AppContext) async throws -> Response {
        Self.plain("ok\n")
    }

    @Sendable func readyz(_ request: Request, _ context: AppContext) async throws -> Response {
        if draining.isOn { return Self.plain("shutting down\n", status: .serviceUnavailable) }
        do {
            try await ping()
            return Self.plain("ready\n")
        } catch {
            context.logger.error("Readiness check failed", metadata: ["error": "\(error)"])
            return Self.plain("database unavailable\n", status: .serviceUnavailable)
        }
    }

    @Sendable func metrics(_ request: Request, _ context: AppContext) async throws -> Response {
        var response = Response(status: .ok, body: .init(bytes: registry.emitToBuffer()))
        response.headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private static func plain(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = Response.text(text, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// Answers 404 for any path not spelled exactly as one of `paths` (the router itself forgives
/// a trailing or doubled slash, as people type them).
struct ExactPathsOnly: Middleware {
    let paths: Set<String>

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        guard paths.contains(request.path) else {
            throw StatusError(.notFound, message: "There is no page at this address.")
        }
        return try await next(request, context)
    }
}
