import AuthCore
import ConsoleCore
import Foundation

/// ``ConsoleCore/ConsoleStore`` on either database (``ConsoleQueries``).
public struct SQLConsoleStore<Runner: StepRunner>: ConsoleStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func sessionAndPasskey(session key: Data, operators: Operators) async throws -> (
        session: SessionRecord?, hasPasskey: Bool
    ) {
        try await runner.read { ConsoleQueries.sessionAndPasskey(session: key, operators: operators) }
    }

    public func addEnrollment(tokenSHA256: Data, phone: String, expiresAt: Double) async throws {
        _ = try await runner.transaction {
            Step<Int>.execute([Statement(ConsoleQueries.addEnrollment, tokenSHA256, phone, expiresAt)])
        }
    }

    public func enrollmentIsLive(tokenSHA256: Data, phone: String, at now: Double) async throws -> Bool {
        try await runner.read {
            .rows(Statement(ConsoleQueries.liveEnrollment, tokenSHA256, phone, now)) { .done(!$0.isEmpty) }
        }
    }

    public func useEnrollment(tokenSHA256: Data, phone: String, at now: Double) async throws -> Bool {
        try await runner.transaction {
            .changes(Statement(ConsoleQueries.useEnrollment, tokenSHA256, phone, now)) { .done($0 == 1) }
        }
    }

    public func glance(since: Double, breakerSince: Double, settledBy: Double, minCodes: Int) async throws
        -> GlanceCounts
    {
        try await runner.read {
            ConsoleQueries.glance(since: since, breakerSince: breakerSince, settledBy: settledBy, minCodes: minCodes)
        }
    }
}
