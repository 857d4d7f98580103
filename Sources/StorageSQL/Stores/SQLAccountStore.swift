import AccountCore
import EventsCore
import Foundation

/// ``AccountCore/AccountStore`` on either database (``AccountQueries``), through the database's
/// ``StepRunner``.
public struct SQLAccountStore<Runner: StepRunner>: AccountStore {
    let runner: Runner
    /// How long a code lives: a number's sends are the person's from that long before they got it.
    let codeLifetime: Double

    public init(runner: Runner, codeLifetime: Double) {
        self.runner = runner
        self.codeLifetime = codeLifetime
    }

    public func account(holding phone: String) async throws -> Int64? {
        try await runner.read { AccountQueries.account(holding: phone) }
    }

    public func detachedAccounts(from phone: String) async throws -> [DetachedAccountSummary] {
        try await runner.read { AccountQueries.detachedAccounts(from: phone) }
    }

    public func summary(user: Int64, now: Double) async throws -> AccountSummary? {
        try await runner.read { AccountQueries.summary(user: user, now: now) }
    }

    public func export(user: Int64, now: Double) async throws -> AccountExport? {
        let codeLifetime = self.codeLifetime
        return try await runner.read { AccountQueries.export(user: user, now: now, codeLifetime: codeLifetime) }
    }

    public func delete(
        user: Int64, at: Double, recording operatorEvent: Event?,
        decide: @escaping @Sendable (DeletionSnapshot) -> DeletionDecision
    ) async throws -> DeletionDecision {
        try await runner.transaction {
            AccountQueries.delete(user: user, at: at, recording: operatorEvent, decide: decide)
        }
    }

    public func replaceRecoveryCodes(user: Int64, digests: [Data], at: Double) async throws {
        _ = try await runner.transaction { AccountQueries.replaceRecoveryCodes(user: user, digests: digests, at: at) }
    }
}
