import AuthCore

/// ``AuthCore/AuthStore`` on either database: reads what the rules name (``AuthReads``) and
/// writes what they decided (``AuthChanges``), one transaction each, through the database's
/// ``StepRunner``.
///
/// A transaction holds the locks its ``AuthCore/ReadList`` names (on PostgreSQL, advisory locks
/// on the phone number and the client address; on SQLite, the one writer), so a code's attempt
/// count, the resend cooldown and the sending limits hold however many requests run at once on
/// however many instances.
public struct SQLAuthStore<Runner: StepRunner>: AuthStore {
    let runner: Runner

    public init(runner: Runner) {
        self.runner = runner
    }

    public func transaction<Outcome: Sendable>(
        reading list: ReadList, decide: @escaping @Sendable ([AuthAnswer]) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome> {
        return try await runner.transaction(locking: list.locks) {
            AuthReads.answers(list.reads).then { answers in
                let decision = try decide(answers)
                return AuthChanges.apply(decision.changes).map {
                    Applied(decision.outcome, signedInUserID: $0.user, eventsRecorded: $0.events)
                }
            }
        }
    }

    public func read(_ reads: [AuthRead]) async throws -> [AuthAnswer] {
        return try await runner.read { AuthReads.answers(reads) }
    }

    public func apply(_ changes: [AuthChange]) async throws {
        _ = try await runner.transaction { AuthChanges.apply(changes) }
    }

    public func purge(_ cutoffs: PurgeCutoffs) async throws -> Purged {
        try await runner.transaction { AuthChanges.purge(cutoffs) }
    }
}
