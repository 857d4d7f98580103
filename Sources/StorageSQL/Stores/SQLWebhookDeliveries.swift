import EventsCore
import Foundation

/// ``EventsCore/WebhookDeliveries`` on either database (``WebhookQueries``).
public struct SQLWebhookDeliveries<Runner: StepRunner>: WebhookDeliveries {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func register(_ urls: [String], as kind: OutboxReader, now: Double) async throws {
        _ = try await runner.transaction { WebhookQueries.register(urls, as: kind, now: now) }
    }

    public func claimDue(_ kind: OutboxReader, now: Double, lease: Double) async throws -> DeliveryCursor? {
        try await runner.transaction { WebhookQueries.claimDue(kind, now: now, lease: lease) }
    }

    public func next(after cursor: Int64, limit: Int) async throws -> [StoredEvent] {
        try await runner.read { WebhookQueries.next(after: cursor, limit: limit) }
    }

    public func advance(_ claim: DeliveryCursor, past id: Int64, now: Double) async throws -> Bool {
        try await runner.transaction { WebhookQueries.advance(claim, past: id, now: now) } == 1
    }

    public func failed(_ claim: DeliveryCursor, retryAt: Double?, error: String, now: Double) async throws -> Bool {
        try await runner.transaction { WebhookQueries.failed(claim, retryAt: retryAt, error: error, now: now) } == 1
    }

    public func release(_ claim: DeliveryCursor, next: Double) async throws -> Bool {
        try await runner.transaction { WebhookQueries.release(claim, next: next) } == 1
    }

    public func endpoints() async throws -> [EndpointStatus] {
        try await runner.read { WebhookQueries.endpoints() }
    }

    public func resume(_ url: String, now: Double) async throws -> Bool {
        try await runner.transaction { WebhookQueries.resume(url, now: now) } == 1
    }
}
