import Foundation

/// Where sign-ins are kept: codes, the counts behind the limits, sessions and users.
///
/// A store decides nothing. It answers the reads a ``ReadList`` names, hands the answers to a
/// decision of ``SignInRules`` and writes the ``AuthChange``s it returns, all in one
/// transaction, so a check and the change it leads to can never be split by another request,
/// on this instance or another. Sessions are addressed by their storage key (a hash of the
/// cookie value), never the token. The rules call it through a ``ReadPlan`` (below), so each
/// decision gets the typed values of exactly its own reads.
public protocol AuthStore: Sendable {
    /// Answers `list`'s reads (one ``AuthAnswer`` each, in order), passes them to `decide` and
    /// applies the changes it returns, in one transaction that holds `list.locks` (and, on
    /// SQLite, the one writer) until it ends. `decide` may run more than once if the database
    /// asks for a retry; it must be pure.
    func transaction<Outcome: Sendable>(
        reading list: ReadList, decide: @escaping @Sendable ([AuthAnswer]) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome>

    /// Answers `reads` without a write transaction (a session lookup, the resend wait).
    func read(_ reads: [AuthRead]) async throws -> [AuthAnswer]

    /// Applies changes decided on an earlier read (refreshing a session's idle timer), in one
    /// transaction.
    func apply(_ changes: [AuthChange]) async throws

    /// Deletes what ``PurgeCutoffs`` says is old; says how many rows went.
    func purge(_ cutoffs: PurgeCutoffs) async throws -> Purged
}

extension AuthStore {
    /// Runs `decide` on what `plan` reads, and applies what it decided, in one transaction.
    public func transaction<Plan: ReadPlan, Outcome: Sendable>(
        _ plan: Plan, decide: @escaping @Sendable (Plan.Found) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome> {
        try await transaction(reading: plan.list) { answers in
            try decide(try plan.found(in: Answers(answers, to: plan.list)))
        }
    }

    /// What `plan` reads, outside a write transaction.
    public func read<Plan: ReadPlan>(_ plan: Plan) async throws -> Plan.Found {
        try plan.found(in: Answers(try await read(plan.list.reads), to: plan.list))
    }
}

/// The database did not answer in time (a server that is down, unreachable or overloaded).
/// Nothing was decided; the person may simply try again. Pages and the API answer 503.
public struct StorageUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// A value read back from the database that the code does not know (a kind, an action, a
/// phone number that no longer parses): that one request fails with a 500, the process goes on.
public struct StoredDataCorrupt: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
