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

    public func takeCode(_ hash: Data, at now: Double) async throws -> Taken<CodeGrant> {
        try await runner.transaction { OIDCQueries.takeCode(hash, at: now) }
    }

    public func saveRefresh(_ hash: Data, _ grant: RefreshGrant) async throws {
        _ = try await runner.transaction { OIDCQueries.saveRefresh(hash, grant) }
    }

    public func takeRefresh(_ hash: Data, at now: Double) async throws -> Taken<RefreshGrant> {
        try await runner.transaction { OIDCQueries.takeRefresh(hash, at: now) }
    }

    public func revoke(family: Data, at now: Double) async throws {
        _ = try await runner.transaction { OIDCQueries.revoke(family: family, at: now) }
    }

    public func userinfo(family: Data) async throws -> (userID: Int64, phone: String)? {
        try await runner.read { OIDCQueries.userinfo(family: family) }.map { ($0.userID, $0.phone) }
    }

    public func hasConsent(user: Int64, client: String, scopes: [String]) async throws -> Bool {
        try await runner.read { OIDCQueries.hasConsent(user: user, client: client, scopes: scopes) }
    }

    public func grantConsent(user: Int64, client: String, scopes: [String], at now: Double) async throws {
        _ = try await runner.transaction {
            OIDCQueries.grantConsent(user: user, client: client, scopes: scopes, at: now)
        }
    }

    public func revokeConsent(user: Int64, client: String, at now: Double) async throws {
        _ = try await runner.transaction { OIDCQueries.revokeConsent(user: user, client: client, at: now) }
    }

    public func connectedApps(user: Int64, at now: Double) async throws -> [Consent] {
        try await runner.read { OIDCQueries.connectedApps(user: user, at: now) }
    }

    public func purge(before now: Double) async throws -> Int {
        try await runner.transaction { OIDCQueries.purge(before: now) }
    }
}
