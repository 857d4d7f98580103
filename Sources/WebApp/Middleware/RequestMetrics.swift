import Foundation
import HTTPLite
import Metrics

/// Counts every request by route and status (`http_requests_total{route,status}`) and times it
/// (`http_request_duration_seconds{route}`, a histogram in Prometheus). The route is the
/// pattern that answered (`/accounts/:id`), never the raw path, so the number of series stays
/// small; requests no route answered are `route="none"`.
///
/// The metric handles are made once per route and status and kept: asking the factory on
/// every request cost about 10% of the sign-in throughput in `bench/run`.
///
/// Connections closed at once because a cap was reached are `http_connections_refused_total{reason}`
/// (`total`, `per_client`).
struct RequestMetrics: Middleware {
    private let handles: Handles
    private let refusedConnections: [ConnectionRefusal: Counter]

    init(factory: any MetricsFactory) {
        self.handles = Handles(factory: factory)
        self.refusedConnections = Dictionary(
            uniqueKeysWithValues: [ConnectionRefusal.total, .perClient].map { reason in
                (
                    reason,
                    Counter(
                        label: "http_connections_refused_total", dimensions: [("reason", reason.rawValue)],
                        factory: factory)
                )
            })
    }

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let (counter, timer) = handles.for(route: context.matchedRoute.pattern ?? "none", status: response.status.code)
        counter.increment()
        let elapsed = (ContinuousClock.now - started).components
        timer.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        return response
    }

    /// Counts an answer the server gave before any middleware ran (`route="refused"`: a body,
    /// URL or headers over the limits, a request that was not HTTP, one that came too slowly).
    func countRefusal(_ status: Int) {
        handles.for(route: "refused", status: status).0.increment()
    }

    /// Counts a connection closed at once because a cap was reached.
    func countRefusedConnection(_ reason: ConnectionRefusal) {
        refusedConnections[reason]?.increment()
    }

    /// The counter and timer for each route and status seen so far.
    private final class Handles: @unchecked Sendable {
        private let factory: any MetricsFactory
        private let lock = NSLock()
        private var made: [Key: (Counter, Timer)] = [:]

        private struct Key: Hashable {
            let route: String
            let status: Int
        }

        init(factory: any MetricsFactory) {
            self.factory = factory
        }

        func `for`(route: String, status: Int) -> (Counter, Timer) {
            let key = Key(route: route, status: status)
            return lock.withLock {
                if let found = made[key] { return found }
                let handles = (
                    Counter(
                        label: "http_requests_total", dimensions: [("route", route), ("status", String(status))],
                        factory: factory),
                    Timer(label: "http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
                )
                made[key] = handles
                return handles
            }
        }
    }
}
