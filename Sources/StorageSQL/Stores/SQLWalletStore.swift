import AuthCore
import Foundation
import WalletCore

/// ``WalletCore/WalletStore`` on either database: reads what ``WalletCore/WalletRules`` name and
/// writes what they decided (``WalletQueries``), through the database's ``StepRunner``.
public struct SQLWalletStore<Runner: StepRunner>: WalletStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func overview(user: Int64) async throws -> StoredOverview {
        try await runner.read { WalletQueries.overview(user: user) }
    }

    public func sessionAndOverview(session key: Data) async throws -> (
        session: SessionRecord?, overview: StoredOverview?
    ) {
        try await runner.read { WalletQueries.sessionAndOverview(session: key) }
    }

    public func account(user: Int64, id: Int64) async throws -> Account? {
        try await runner.read { WalletQueries.account(user: user, id: id) }
    }

    public func history(user: Int64, account id: Int64, limit: Int) async throws -> [WalletCore.Operation]? {
        try await runner.read { WalletQueries.history(user: user, account: id, limit: limit) }
    }

    public func transaction(
        reading reads: WalletReads, decide: @escaping @Sendable (WalletSnapshot) throws -> WalletDecision
    ) async throws -> Receipt {
        try await runner.transaction { WalletQueries.transaction(reading: reads, decide: decide) }
    }

    public func purgeKeys(before cutoff: Double) async throws -> Int {
        try await runner.transaction { WalletQueries.purgeKeys(before: cutoff) }
    }
}
