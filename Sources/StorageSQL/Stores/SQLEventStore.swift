import EventsCore
import Foundation

/// ``EventsCore/EventStore`` on either database (``EventQueries``).
public struct SQLEventStore<Runner: StepRunner>: EventStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func activity(user: Int64, since: Double, before: Int64?, limit: Int) async throws -> [StoredEvent] {
        try await runner.read { EventQueries.activity(user: user, since: since, before: before, limit: limit) }
    }

    public func export(_ filter: EventFilter, after: Int64, limit: Int) async throws -> [StoredEvent] {
        try await runner.read { EventQueries.export(filter, after: after, limit: limit) }
    }
}
