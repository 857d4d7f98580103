import AsyncHTTPClient
import EventsCore
import Foundation
import Logging
import Metrics
import NIOCore
import ServiceLifecycle

/// Sends the recorded events to the endpoints of one ``EventsCore/OutboxReader`` kind: the
/// `--webhooks` endpoints (Standard Webhooks), or the apps' back-channel logout addresses. From
/// the events table, in order, each endpoint from its cursor (``EventsCore/WebhookDeliveries``),
/// so a restart or a second instance loses nothing and sends nothing twice on purpose (a delivery
/// that succeeded just before a crash may be sent again, with the same `webhook-id` or a logout
/// token for the same session).
///
/// One attempt takes at most 15 seconds and follows no redirect; a 2xx ends it. A failure waits
/// as ``EventsCore/RetrySchedule`` says; after about a day the endpoint is paused, with a warning
/// and `<kind>_endpoints_paused_total`. At most 4 endpoints are served at once, each by a worker
/// of its own, so a slow one cannot hold the others.
struct OutboxService: Service {
    let kind: OutboxReader
    let recipients: [String: any OutboxRecipient]
    let deliveries: any WebhookDeliveries
    let storage: StorageReadiness
    let interval: Duration
    let clock: @Sendable () -> Date
    let logger: Logger
    let factory: any MetricsFactory

    static let timeout: TimeAmount = .seconds(15)
    /// How long a claimed endpoint is another instance's to leave alone, renewed at each event.
    static let lease: Double = 60
    static let eventsPerClaim = 50
    static let concurrency = 4

    init(
        _ kind: OutboxReader, recipients: [any OutboxRecipient], deliveries: any WebhookDeliveries,
        storage: StorageReadiness, interval: Duration, clock: @escaping @Sendable () -> Date, logger: Logger,
        factory: any MetricsFactory
    ) {
        self.kind = kind
        self.recipients = Dictionary(recipients.map { ($0.key, $0) }) { first, _ in first }
        self.deliveries = deliveries
        self.storage = storage
        self.interval = interval
        self.clock = clock
        self.logger = logger
        self.factory = factory
    }

    func run() async throws {
        guard (try? await storage.wait()) == true else {
            try? await gracefulShutdown()
            return
        }
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .seconds(5), read: Self.timeout)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await deliveries.register(recipients.keys.sorted(), as: kind, now: now)
            try? await cancelWhenGracefulShutdown { [self] in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<Self.concurrency {
                        group.addTask { try await work(client) }
                    }
                    try await group.waitForAll()
                }
            }
        } catch {
            logger.error("Outbox could not start", metadata: ["kind": "\(kind.rawValue)", "error": "\(error)"])
        }
        try? await client.shutdown()
    }

    private var now: Double { clock().timeIntervalSince1970 }

    /// One of ``concurrency`` workers, each on its own: it serves whichever endpoint is due and
    /// looks again after ``interval`` when none is, so an endpoint that hangs holds one worker
    /// for at most ``timeout`` and never the others.
    func work(_ client: HTTPClient) async throws {
        while !Task.isCancelled {
            do {
                if let claimed = try await deliveries.claimDue(kind, now: now, lease: Self.lease) {
                    try await serve(claimed, client)
                    continue
                }
            } catch {
                logger.error("Outbox failed", metadata: ["kind": "\(kind.rawValue)", "error": "\(error)"])
            }
            try await Task.sleep(for: interval)
        }
    }

    /// The claimed endpoint's next events, in order, until one fails or nothing is left: read
    /// in one query, and the cursor written once per delivery (events it is not told of are
    /// passed over with the next write).
    func serve(_ claimed: DeliveryCursor, _ client: HTTPClient) async throws {
        guard let recipient = recipients[claimed.url] else {
            // No longer configured: kept (it may come back), looked at hourly.
            try await deliveries.release(claimed.url, next: now + 3600)
            return
        }
        let batch = try await deliveries.next(after: claimed.cursor, limit: Self.eventsPerClaim)
        var written = claimed.cursor
        for stored in batch {
            // The schedule counts from when the attempt began, however long it took.
            let began = now
            guard let request = try await recipient.request(for: stored, at: Int(began)) else { continue }
            if let failure = await send(request, client) {
                // Events passed over before this one are passed over all the same.
                if let skipped = batch.last(where: { $0.id < stored.id }), skipped.id > written {
                    try await deliveries.advance(claimed.url, past: skipped.id, now: now, lease: now + Self.lease)
                    written = skipped.id
                }
                // A cursor moved in this claim forgot the earlier failures (as the store did).
                let failures = written == claimed.cursor ? claimed.failures + 1 : 1
                let retry = RetrySchedule.next(afterFailures: failures, now: began)
                try await deliveries.failed(claimed.url, retryAt: retry, error: failure, now: now)
                count("deliveries_total", ("outcome", "failed"))
                if retry == nil {
                    count("endpoints_paused_total")
                    logger.warning(
                        "Outbox endpoint paused after a day of failures",
                        metadata: [
                            "kind": "\(kind.rawValue)", "endpoint": "\(request.url.host ?? "")", "error": "\(failure)",
                        ])
                }
                return
            }
            count("deliveries_total", ("outcome", "delivered"))
            try await deliveries.advance(claimed.url, past: stored.id, now: now, lease: now + Self.lease)
            written = stored.id
        }
        if let last = batch.last, last.id > written {
            try await deliveries.advance(claimed.url, past: last.id, now: now, lease: now + Self.lease)
        }
        // A full batch may have more behind it: due again at once.
        try await deliveries.release(claimed.url, next: batch.count == Self.eventsPerClaim ? now : now + 1)
    }

    /// One attempt; nil when the endpoint answered 2xx, else why not (kept for the operator).
    func send(_ outgoing: OutboxRequest, _ client: HTTPClient) async -> String? {
        var request = HTTPClientRequest(url: outgoing.url.absoluteString)
        request.method = .POST
        for (name, value) in outgoing.headers {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(bytes: outgoing.body))
        do {
            let response = try await client.execute(request, timeout: Self.timeout)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return (200..<300).contains(response.status.code) ? nil : "HTTP \(response.status.code)"
        } catch {
            return String(describing: error).prefix(200).description
        }
    }

    /// `webhook_deliveries_total`, `backchannel_logout_endpoints_paused_total`, …
    private func count(_ label: String, _ dimensions: (String, String)...) {
        Counter(label: "\(kind.rawValue)_\(label)", dimensions: dimensions, factory: factory).increment()
    }
}
