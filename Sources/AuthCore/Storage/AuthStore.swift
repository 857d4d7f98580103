import Foundation

/// Where sign-ins are kept: codes, the counts behind the limits, sessions and users.
///
/// A store decides nothing. It reads what an ``AuthReads`` names, hands that to a decision of
/// ``SignInRules`` and writes the ``AuthChange``s it returns, all in one transaction, so a
/// check and the change it leads to can never be split by another request, on this instance
/// or another. Sessions are addressed by their storage key (a hash of the cookie value), never
/// the token.
public protocol AuthStore: Sendable {
    /// Reads `reads`, passes what was found to `decide` and applies the changes it returns, in
    /// one transaction that holds `reads.locks` (and, on SQLite, the one writer) until it ends.
    /// `decide` may run more than once if the database asks for a retry; it must be pure.
    func transaction<Outcome: Sendable>(
        reading reads: AuthReads, decide: @escaping @Sendable (AuthSnapshot) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome>

    /// Reads `reads` without a write transaction (a session lookup, the resend wait).
    func read(_ reads: AuthReads) async throws -> AuthSnapshot

    /// Applies changes decided on an earlier ``read(_:)`` (refreshing a session's idle timer),
    /// in one transaction.
    func apply(_ changes: [AuthChange]) async throws

    /// Deletes what ``PurgeCutoffs`` says is old; returns how many rows went.
    func purge(_ cutoffs: PurgeCutoffs) async throws -> Int
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
