import EventsCore
import Foundation
import Metrics
import Synchronization

/// An ``AuthStore`` that counts, once committed, the events each decision recorded
/// (`events_total{type=…}`), so a dashboard sees sign-ins, wrong codes and lockouts by type
/// without reading the table. Everything else is the wrapped store's.
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
        // The last decision made is the one committed (a retried transaction decides again).
        let decided = Mutex<[AuthChange]>([])
        let applied = try await store.transaction(reading: list) { answers in
            let decision = try decide(answers)
            decided.withLock { $0 = decision.changes }
            return decision
        }
        count(decided.withLock { $0 })
        return applied
    }

    public func read(_ reads: [AuthRead]) async throws -> [AuthAnswer] {
        try await store.read(reads)
    }

    public func apply(_ changes: [AuthChange]) async throws {
        try await store.apply(changes)
        count(changes)
    }

    public func purge(_ cutoffs: PurgeCutoffs) async throws -> Int {
        try await store.purge(cutoffs)
    }

    private func count(_ changes: [AuthChange]) {
        for change in changes {
            guard case .recordEvent(let event) = change else { continue }
            Counter(label: "events_total", dimensions: [("type", event.type.rawValue)], factory: factory).increment()
        }
    }
}
