import DeliveryCore
import EventsCore
import Foundation
import Logging
import Wording

/// A session's state as read, signing out, and the purge of what has expired.
extension SignInService {
    /// What a session row read elsewhere (with other data in the same round trip, as Home does)
    /// stands for now; refreshes its idle timer like ``state(of:)``. A refresh the database
    /// cannot take now (a full disk, a writer holding it) is left for the next request: the page
    /// only reads, and is served.
    public func state(of key: Data, found record: SessionRecord?) async throws -> SessionState? {
        guard let (state, touch) = try rules.session(key, record, now: clock()) else { return nil }
        if let touch {
            do {
                try await store.apply([touch])
            } catch let error as StorageUnavailable {
                logger.warning("Session's idle timer not refreshed", metadata: ["error": "\(error)"])
            }
        }
        return state
    }

    /// What the session stands for now; `nil` when it is unknown or expired. A signed-in
    /// session seen again after a while has its idle timer refreshed.
    public func state(of session: SessionToken) async throws -> SessionState? {
        let key = session.storageKey
        return try await state(of: key, found: try await store.read(rules.sessionReads(key)))
    }

    /// ``state(of:)`` with the session's row (when and how its person signed in, as
    /// ``sessionRecord(of:)`` gives it), from one read: for the pages whose door asks both.
    public func stateAndRecord(of session: SessionToken) async throws
        -> (state: SessionState, record: SessionRecord)?
    {
        let key = session.storageKey
        guard let record = try await store.read(rules.sessionReads(key)),
            let state = try await state(of: key, found: record)
        else { return nil }
        return (state, record)
    }

    /// The session row the token names, when it is live (when and how its person signed in).
    public func sessionRecord(of session: SessionToken) async throws -> SessionRecord? {
        let record = try await store.read(rules.sessionReads(session.storageKey))
        return try rules.session(session.storageKey, record, now: clock()) == nil ? nil : record
    }

    /// Ends the session on the server.
    /// `by`: the signed-in person who chose to sign out ("Log out"): noted as their event, with
    /// the browser's `userAgent` and `client`. Without it (a session replaced by a new one) nothing
    /// is noted.
    public func signOut(
        session: SessionToken, by user: Int64? = nil, userAgent: String? = nil, client: String? = nil
    ) async throws {
        try await store.apply(
            [.deleteSession(key: session.storageKey)]
                + (user.map {
                    [
                        SignInRules.event(
                            .signedOut, at: clock().timeIntervalSince1970, user: $0,
                            detail: SessionEnd.signedOut.rawValue,
                            reference: SessionToken.sid(ofStorageKey: session.storageKey), userAgent: userAgent,
                            client: client)
                    ]
                } ?? []))
    }

    /// Removes expired sessions and codes.
    @discardableResult
    public func purgeExpired() async throws -> Int {
        try await store.purge(rules.purgeCutoffs(now: clock())).rows
    }
}
