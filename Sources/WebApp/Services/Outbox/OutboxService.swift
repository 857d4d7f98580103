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
    /// How long a claimed endpoint is this sender's: others leave it alone, and this one begins no
    /// attempt the rest of it might not cover (``attemptAllowance``).
    static let lease: Double = 60
    static let eventsPerClaim = 50
    static let concurrency = 4
    /// An attempt's longest time (the timeout) and a margin for the database's writes.
    static let attemptAllowance: Double = 20

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

    /// The claimed endpoint's next events, in order, until one fails, nothing is left, or the
    /// lease would run out during the next attempt: read in one query, and the cursor written
    /// once per delivery (events it is not told of are passed over with the next write). A
    /// write refused because the lease went to another sender ends the claim at once.
    func serve(_ claimed: DeliveryCursor, _ client: HTTPClient) async throws {
        guard let recipient = recipients[claimed.url] else {
            // No longer configured: kept (it may come back), looked at hourly.
            _ = try await deliveries.release(claimed, next: now + 3600)
            return
        }
        let batch = try await deliveries.next(after: claimed.cursor, limit: Self.eventsPerClaim)
        var written = claimed.cursor
        var served = 0
        for stored in batch {
            // An attempt takes up to `timeout`: none begins that the lease might not cover.
            guard now + Self.attemptAllowance < claimed.leaseUntil else { break }
            // The schedule counts from when the attempt began, however long it took.
            let began = now
            guard let request = try await recipient.request(for: stored, at: Int(began)) else {
                served += 1
                continue
            }
            if let failure = await send(request, client) {
                // Events passed over before this one are passed over all the same.
                if let skipped = batch.last(where: { $0.id < stored.id }), skipped.id > written {
                    guard try await deliveries.advance(claimed, past: skipped.id, now: now) else { return lost(claimed) }
                    written = skipped.id
                }
                // A cursor moved in this claim forgot the earlier failures (as the store did).
                let failures = written == claimed.cursor ? claimed.failures + 1 : 1
                let retry = RetrySchedule.next(afterFailures: failures, now: began)
                guard try await deliveries.failed(claimed, retryAt: retry, error: failure, now: now) else {
                    return lost(claimed)
                }
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
            guard try await deliveries.advance(claimed, past: stored.id, now: now) else { return lost(claimed) }
            written = stored.id
            served += 1
        }
        if served > 0, let last = batch.prefix(served).last, last.id > written {
            guard try await deliveries.advance(claimed, past: last.id, now: now) else { return lost(claimed) }
        }
        // More may be waiting (a full batch, or one the lease cut short): due again at once.
        let more = batch.count == Self.eventsPerClaim || served < batch.count
        guard try await deliveries.release(claimed, next: more ? now : now + 1) else { return lost(claimed) }
    }

    /// The lease ran out during the claim (a stalled process, a moved clock) and another sender
    /// holds the endpoint now: this one stops, having written nothing over the other's work.
    private func lost(_ claimed: DeliveryCursor) {
        count("leases_lost_total")
        logger.notice("Outbox lease lost; another sender has the endpoint", metadata: ["kind": "\(kind.rawValue)"])
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
