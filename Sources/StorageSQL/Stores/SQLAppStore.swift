import EventsCore
import Foundation
import OIDCCore

/// ``OIDCCore/AppStore`` on either database (``AppQueries``).
public struct SQLAppStore<Runner: StepRunner>: AppStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func app(id: String) async throws -> StoredApp? {
        try await runner.read { AppQueries.app(id: id) }
    }

    public func apps() async throws -> [StoredApp] {
        try await runner.read { AppQueries.apps() }
    }

    public func add(_ app: StoredApp, recording event: Event) async throws {
        guard try await runner.transaction({ AppQueries.add(app, recording: event) }) else {
            throw StoredApp.Refusal.idTaken
        }
    }

    public func update(id: String, name: String, redirectURIs: [String], recording event: Event) async throws -> Bool {
        try await runner.transaction { AppQueries.update(id: id, name: name, redirectURIs: redirectURIs, recording: event) }
    }

    public func rotateSecret(id: String, to sha256: Data, retiringUntil: Double, recording event: Event) async throws
        -> Bool
    {
        try await runner.transaction {
            AppQueries.rotateSecret(id: id, to: sha256, retiringUntil: retiringUntil, recording: event)
        }
    }

    public func setDisabled(id: String, at: Double?, recording event: Event) async throws -> Bool {
        try await runner.transaction { AppQueries.setDisabled(id: id, at: at, recording: event) }
    }

    public func delete(id: String, at: Double, recording event: Event) async throws -> Bool {
        try await runner.transaction { AppQueries.delete(id: id, at: at, recording: event) }
    }
}
