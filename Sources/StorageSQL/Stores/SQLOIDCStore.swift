import EventsCore
import Foundation
import OIDCCore

/// ``OIDCCore/OIDCStore`` on either database: each method runs ``OIDCQueries`` in one
/// transaction through the database's ``StepRunner``.
public struct SQLOIDCStore<Runner: StepRunner>: OIDCStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func saveCode(_ hash: Data, _ grant: CodeGrant, at now: Double) async throws {
        _ = try await runner.transaction { OIDCQueries.saveCode(hash, grant, at: now) }
    }

    public func redeemCode<Outcome: Sendable>(
        _ hash: Data, decide: @escaping @Sendable (StoredGrant<CodeGrant>?) -> OIDCDecision<Outcome>
    ) async throws -> Outcome {
        try await runner.transaction { OIDCQueries.redeemCode(hash, decide: decide) }
    }

    public func redeemRefresh<Outcome: Sendable>(
        _ hash: Data, decide: @escaping @Sendable (StoredGrant<RefreshGrant>?) -> OIDCDecision<Outcome>
    ) async throws -> Outcome {
        try await runner.transaction { OIDCQueries.redeemRefresh(hash, decide: decide) }
    }

    public func userOfSession(sid: String, client: String) async throws -> Int64? {
        try await runner.read { OIDCQueries.userOfSession(sid: sid, client: client) }
    }

    public func userinfo(family: Data) async throws -> (userID: Int64, phone: String)? {
        try await runner.read { OIDCQueries.userinfo(family: family) }.map { ($0.userID, $0.phone) }
    }

    public func hasConsent(user: Int64, client: String, scopes: [Scope]) async throws -> Bool {
        try await runner.read { OIDCQueries.hasConsent(user: user, client: client, scopes: scopes) }
    }

    public func grantConsent(user: Int64, client: String, scopes: [Scope], at now: Double) async throws {
        _ = try await runner.transaction {
            OIDCQueries.grantConsent(user: user, client: client, scopes: scopes, at: now)
        }
    }

    public func revokeConsent(user: Int64, client: String, at now: Double, recording operatorEvent: Event? = nil)
        async throws
    {
        _ = try await runner.transaction {
            OIDCQueries.revokeConsent(user: user, client: client, at: now, recording: operatorEvent)
        }
    }

    public func connectedApps(user: Int64, at now: Double) async throws -> [Consent] {
        try await runner.read { OIDCQueries.connectedApps(user: user, at: now) }
    }

    public func purge(before now: Double) async throws -> Int {
        try await runner.transaction { OIDCQueries.purge(before: now) }
    }
}
