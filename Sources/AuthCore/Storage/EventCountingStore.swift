import EventsCore
import Foundation
import Metrics

/// An ``AuthStore`` that counts, once committed, the events each transaction wrote
/// (`events_total{type=…}`; a lockout noted once counts once however many tries it refuses,
/// and the purge's expired sessions count as `session.ended`), so a dashboard sees sign-ins,
/// wrong codes and lockouts by type without reading the table. Everything else is the wrapped
/// store's.
public struct EventCountingStore: AuthStore {
    let store: any AuthStore
    let factory: any MetricsFactory

    public init(_ store: any AuthStore, factory: any MetricsFactory) {
        self.store = store
        self.factory = factory
    }

    public func transaction<Outcome: Sendable>(
        reading list: ReadList, decide: @escaping @Sendable ([AuthAnswer]) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome> {
        let applied = try await store.transaction(reading: list, decide: decide)
        count(applied.eventsRecorded)
        return applied
    }

    public func read(_ reads: [AuthRead]) async throws -> [AuthAnswer] {
        try await store.read(reads)
    }

    public func apply(_ changes: [AuthChange]) async throws {
        try await store.apply(changes)
        count(
            changes.compactMap {
                guard case .recordEvent(let event) = $0 else { return nil }
                return event.type
            })
    }

    public func purge(_ cutoffs: PurgeCutoffs) async throws -> Purged {
        let purged = try await store.purge(cutoffs)
        count(Array(repeating: .signedOut, count: purged.sessionsEnded))
        return purged
    }

    private func count(_ types: [EventType]) {
        for type in types {
            Counter(label: "events_total", dimensions: [("type", type.rawValue)], factory: factory).increment()
        }
    }
}
