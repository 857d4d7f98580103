import AuthCore
import EventsCore
import Foundation

/// The statements that write each ``AuthCore/AuthChange``, once for both databases.
public enum AuthChanges {
    /// What applying changes wrote that the caller needs to know.
    public struct Written: Sendable {
        /// The user a sign-in wrote, if one did.
        public var user: Int64?
        /// The events written (an event noted once already is not written again).
        public var events: [EventType] = []
    }

    /// Applies `changes` in order; a later change's user stands over an earlier one's. What was
    /// written is carried forward, so each change's answer passes through one closure.
    public static func apply(_ changes: [AuthChange]) -> Step<Written> {
        func from(_ index: Int, _ written: Written) -> Step<Written> {
            guard index < changes.count else { return .done(written) }
            return apply(changes[index]).then { this in
                from(index + 1, Written(user: this.user ?? written.user, events: written.events + this.events))
            }
        }
        return from(0, Written())
    }

    /// One change, and what it wrote.
    static func apply(_ change: AuthChange) -> Step<Written> {
        switch change {
        case .recordEvent(let event):
            Step<Int>.execute([EventQueries.insert(event)]).map { _ in Written(events: [event.type]) }
        case .recordEventOnce(let event, let since):
            .changes(EventQueries.insert(event, unlessSince: since)) { inserted in
                .done(Written(events: inserted > 0 ? [event.type] : []))
            }
        default:
            writing(change).map { Written(user: $0) }
        }
    }

    /// One change that records no event; the result is the signed-in user's id for a sign-in,
    /// else nil.
    static func writing(_ change: AuthChange) -> Step<Int64?> {
        switch change {
        case .signIn(
            let phone, let session, let at, let expiresAt, let absoluteExpiresAt, let userAgent, let api, let method,
            let provedAt):
            // A code (text or call) proves the number: the recycled-number guard counts from it.
            .rows(Statement(upsertUser, phone, at, at, method == .code || method == .call ? at : nil)) { rows in
                guard let user: Int64 = try rows.first?.get("id") else {
                    throw StoredDataCorrupt("a sign-in's user was not returned")
                }
                let agent = userAgent.map(Event.kept)
                return .changes(
                    Statement(
                        insertSignedInSession, session, user, at, at, expiresAt, absoluteExpiresAt, agent, api,
                        method.storedMethod, provedAt ?? at, method.byCall)
                ) { _ in .done(user) }
            }
        case .detachAccount(let user, let phone, let at):
            .changes(Statement(noteDetachment, user, phone)) { _ in
                .changes(Statement(detachAccount, phone, at, user)) { detached in
                    guard detached == 1 else { throw NumberChangeRace() }
                    return .done(nil)
                }
            }
        case .moveAccount(let user, nil, let to, let at):
            .changes(Statement(attachAccount, to, user, at).duplicate(means: NumberChangeRace())) { attached in
                guard attached == 1 else { throw NumberChangeRace() }
                return .changes(Statement(insertNumberChange, user, String?.none, to, at)) { _ in .done(nil) }
            }
        case .moveAccount(let user, let from?, let to, let at):
            .changes(Statement(moveAccount, to, user, from, at).duplicate(means: NumberChangeRace())) { moved in
                guard moved == 1 else { throw NumberChangeRace() }
                return .changes(Statement(insertNumberChange, user, from, to, at)) { _ in .done(nil) }
            }
        default:
            Step<Int>.execute(statements(for: change)).map { _ in nil }
        }
    }

    /// The statements of a change that returns nothing.
    static func statements(for change: AuthChange) -> [Statement] {
        switch change {
        case .deleteSession(let key):
            [Statement(deleteSession, key)]
        case .recordSend(let phone, let client, let at, let channel, let cost, let reference):
            [Statement(insertSend, phone, client, at, channel.rawValue, cost, reference?.hex)]
        case .markVerified(let reference, let at):
            [Statement(markVerified, at, reference.hex)]
        case .recordDelivery(let reference, let report, let at):
            [
                Statement(recordDelivery, report.status.rawValue, at, report.providerID, report.errorCode, reference.hex),
                Statement(EventQueries.deliveryStatus, report.status.rawValue, reference.hex),
            ]
        case .forgetNewestSend(let phone):
            // The send's event goes with it: that code never went out.
            [Statement(forgetNewestSend, phone), Statement(EventQueries.forgetNewestSend, phone)]
        case .storeCode(let phone, let code):
            [
                Statement(
                    upsertCode, phone, code.digest, code.sentAt, code.expiresAt, code.failedAttempts, code.holder,
                    code.lastWrongDigest, code.send?.reference.hex)
            ]
        case .deleteCode(let phone):
            [Statement(deleteCode, phone)]
        case .makePending(let session, let phone, let at, let until):
            [Statement(upsertPendingSession, session, phone, at, until)]
        case .countWrongTry(let phone, let digest):
            [Statement(countWrongTry, digest, phone)]
        case .recordFailure(let phone, let client, let at):
            [Statement(insertFailure, phone, client, at)]
        case .liftLock(let phone):
            [Statement(forgetFailures, phone), Statement(forgetWrongTries, phone)]
        case .rememberDevice(let key, let phone, let at, let until, let userAgent, let session):
            [Statement(insertDevice, key, at, until, userAgent.map(Event.kept), session, phone)]
        case .rotateDevice(let old, let new, let at, let session):
            [Statement(rotateDevice, new, at, session, old)]
        case .forgetDevice(let key):
            [Statement(deleteDevice, key)]
        case .touchSession(let key, let at, let expiresAt):
            [Statement(touchSession, at, expiresAt, key)]
        case .recordSignInStart(let client, let at):
            [Statement(insertSignInStart, client, at)]
        case .storePasskeyChallenge(let key, let challenge):
            [
                Statement(
                    upsertPasskeyChallenge, key, challenge.purpose.rawValue, challenge.challenge, challenge.userID,
                    challenge.client, challenge.createdAt, challenge.expiresAt)
            ]
        case .deletePasskeyChallenge(let key):
            [Statement(deletePasskeyChallenge, key)]
        case .givePasskeyHandle(let user, let handle):
            [Statement(givePasskeyHandle, handle, user)]
        case .addPasskey(let passkey):
            [
                Statement(
                    insertPasskey, passkey.credentialID, passkey.userID, passkey.publicKey, Int64(passkey.signCount),
                    passkey.aaguid, passkey.name, passkey.createdAt)
            ]
        case .usePasskey(let id, let signCount, let at):
            [Statement(usePasskey, Int64(signCount), at, id)]
        case .flagPasskey(let id, let at):
            [Statement(flagPasskey, at, id)]
        case .renamePasskey(let id, let user, let name):
            [Statement(renamePasskey, name, id, user)]
        case .removePasskey(let id, let user):
            [Statement(removePasskey, id, user)]
        case .dismissPasskeyOffer(let user, let at):
            [Statement(dismissPasskeyOffer, at, user)]
        case .spendRecoveryCode(let user, let digest, let at):
            [Statement(spendRecoveryCode, at, user, digest)]
        case .recordRecoveryFailure(let phone, let client, let at, let tried):
            [Statement(insertRecoveryFailure, phone, client, at, tried)]
        case .revokeApps(let user, let at):
            [Statement(revokeGrantsOfUser, at, user)]
        case .makeClaim(let session, let phone, let user, let at, let until):
            [Statement(insertClaim, session, phone, at, until, user)]
        case .numberProved(let user, let at):
            [Statement(noteNumberProved, at, user)]
        case .recordEvent, .recordEventOnce:
            []  // apply(_:) writes each, and says which it wrote
        case .adoptEvents(let phone, let since):
            [Statement(EventQueries.adopt, phone, since)]
        case .signIn, .moveAccount, .detachAccount:
            []  // each checks what it wrote: apply(_:) writes it
        case .providerFailed, .holdProvider, .providerRecovered:
            ProviderHealthQueries.statements(for: change)
        }
    }

    // MARK: Sessions, users and devices

    static let deleteSession = SQL("DELETE FROM sessions WHERE key = $1")
    static let upsertPendingSession = SQL(
        """
        INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
        VALUES ($1, $2, NULL, $3, $3, $4, $4)
        ON CONFLICT (key) DO UPDATE SET
            pending_phone = excluded.pending_phone, user_id = NULL, claim_user_id = NULL,
            last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at,
            absolute_expires_at = excluded.absolute_expires_at
        """)
    static let upsertUser = SQL(
        """
        INSERT INTO users (phone, created_at, last_sign_in_at, number_proved_at) VALUES ($1, $2, $3, $2)
        ON CONFLICT (phone) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at,
            number_proved_at = coalesce($4, users.number_proved_at)
        RETURNING id
        """)
    static let insertSignedInSession = SQL(
        """
        INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at,
                              user_agent, api, method, proved_at, by_call)
        VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
        """)
    static let touchSession = SQL(
        "UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE key = $3 AND user_id IS NOT NULL")
    static let insertDevice = SQL(
        """
        INSERT INTO devices (key, user_id, created_at, last_used_at, expires_at, user_agent, session_key)
        SELECT $1, id, $2, $2, $3, $4, $5 FROM users WHERE phone = $6
        """)
    static let rotateDevice = SQL("UPDATE devices SET key = $1, last_used_at = $2, session_key = $3 WHERE key = $4")
    static let deleteDevice = SQL("DELETE FROM devices WHERE key = $1")
    static let moveAccount = SQL("UPDATE users SET phone = $1, number_proved_at = $4 WHERE id = $2 AND phone = $3")
    static let insertNumberChange = SQL(
        "INSERT INTO number_changes (user_id, old_phone, new_phone, changed_at) VALUES ($1, $2, $3, $4)")

    // MARK: Codes, sends and limits

    static let insertSend = SQL(
        "INSERT INTO code_sends (phone, client, sent_at, channel, cost, reference) VALUES ($1, $2, $3, $4, $5, $6)")
    static let markVerified = SQL("UPDATE code_sends SET verified_at = $1 WHERE reference = $2")
    static let recordDelivery = SQL(
        """
        UPDATE code_sends SET status = $1, status_at = $2, provider_id = coalesce($3, provider_id), error_code = $4
        WHERE reference = $5
        """)
    static let forgetNewestSend = SQL(
        "DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends WHERE phone = $1)")
    static let upsertCode = SQL(
        """
        INSERT INTO verifications
            (phone, code_digest, sent_at, expires_at, failed_attempts, holder, last_wrong_digest, send_reference)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        ON CONFLICT (phone) DO UPDATE SET
            code_digest = excluded.code_digest, sent_at = excluded.sent_at,
            expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts,
            holder = excluded.holder, last_wrong_digest = excluded.last_wrong_digest,
            send_reference = excluded.send_reference
        """)
    static let deleteCode = SQL("DELETE FROM verifications WHERE phone = $1")
    static let countWrongTry = SQL(
        "UPDATE verifications SET failed_attempts = failed_attempts + 1, last_wrong_digest = $1 WHERE phone = $2")
    static let insertFailure = SQL("INSERT INTO failed_checks (phone, client, failed_at) VALUES ($1, $2, $3)")
    static let forgetFailures = SQL("DELETE FROM failed_checks WHERE phone = $1")
    static let forgetWrongTries = SQL(
        "UPDATE verifications SET failed_attempts = 0, last_wrong_digest = NULL WHERE phone = $1")
    static let insertSignInStart = SQL("INSERT INTO sign_in_starts (client, started_at) VALUES ($1, $2)")

    // MARK: The recycled-number guard

    static let insertClaim = SQL(
        """
        INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at,
                              claim_user_id)
        VALUES ($1, $2, NULL, $3, $3, $4, $4, $5)
        """)
    static let attachAccount = SQL(
        """
        UPDATE users SET phone = $1, number_proved_at = $3, detached_phone = NULL, detached_at = NULL
        WHERE id = $2 AND phone IS NULL
        """)
    /// A detached account's history ends its number when the number last proved itself here
    /// (`number_proved_at`), not at the detachment: in the dormant months between, a text to the
    /// number may have reached its new holder (the code of the very sign-in that detached it
    /// did). It starts its next number at its attachment: between the two it held none.
    static let noteDetachment = SQL(
        """
        INSERT INTO number_changes (user_id, old_phone, new_phone, changed_at)
        SELECT id, phone, NULL, number_proved_at FROM users WHERE id = $1 AND phone = $2
        """)
    static let detachAccount = SQL(
        "UPDATE users SET phone = NULL, detached_phone = $1, detached_at = $2 WHERE id = $3 AND phone = $1")
    static let noteNumberProved = SQL(
        "UPDATE users SET number_proved_at = $1 WHERE id = $2 AND number_proved_at < $1")
    static let revokeGrantsOfUser = SQL(
        "UPDATE oidc_grants SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL")

    // MARK: Recovery

    static let spendRecoveryCode = SQL(
        "UPDATE recovery_codes SET used_at = $1 WHERE user_id = $2 AND digest = $3 AND used_at IS NULL")
    static let insertRecoveryFailure = SQL(
        "INSERT INTO failed_recoveries (phone, client, failed_at, try_digest) VALUES ($1, $2, $3, $4)")
}
