import HTTPLite
import Metrics

/// Counts every request by route and status (`http_requests_total{route,status}`) and times it
/// (`http_request_duration_seconds{route}`, a histogram in Prometheus). The route is the
/// pattern that answered (`/accounts/:id`), never the raw path, so the number of series stays
/// small; requests no route answered are `route="none"`.
struct RequestMetrics: Middleware {
    let factory: any MetricsFactory

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.matchedRoute.pattern ?? "none"
        Counter(
            label: "http_requests_total", dimensions: [("route", route), ("status", String(response.status.code))],
            factory: factory
        ).increment()
        Timer(label: "http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(Self.nanoseconds(ContinuousClock.now - started))
        return response
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
