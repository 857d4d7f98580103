import AuthCore
import Foundation
import Synchronization

/// What the database holds for each ``AuthCore/AuthRead``: its statement and what is made of
/// the rows, once for both databases.
public enum AuthReads {
    /// Every read of `reads`, in order. Consecutive limit windows ("the n-th newest since T": a
    /// text's send reads up to five in a row, its number's wrong codes and sends, the client's
    /// sign-ins and sends, the exchange's sends) go as one statement: on SQLite one bind, step
    /// and row instead of one per window, on PostgreSQL one round trip under the send lock.
    public static func answers(_ reads: [AuthRead]) -> Step<[AuthAnswer]> {
        var steps: [Step<[AuthAnswer]>] = []
        var windows: [RecentEvents] = []
        func readWindows() {
            guard !windows.isEmpty else { return }
            steps.append(newest(windows))
            windows = []
        }
        for read in reads {
            if case .events(let events) = read {
                windows.append(events)
                continue
            }
            readWindows()
            steps.append(answer(read).map { [$0] })
        }
        readWindows()
        return Step<[[AuthAnswer]]>.all(steps).map { $0.flatMap { $0 } }
    }

    /// What the database holds for `read`, in one statement (two for a user's places, three for
    /// a user's passkeys).
    public static func answer(_ read: AuthRead) -> Step<AuthAnswer> {
        switch read {
        case .session(let key): session(key).map { .session($0) }
        case .code(let phone): code(Statement(codeByPhone, phone)).map { .code($0?.code) }
        case .heldCode(let holder): code(Statement(codeByHolder, holder)).map { .heldCode($0) }
        case .device(let key): device(key).map { .device($0) }
        case .signedInPlaces(let places): signedInPlaces(places).map { .signedInPlaces($0) }
        case .send(let reference):
            .rows(Statement(sendByReference, reference.hex)) { rows in
                .done(.send(try rows.first.flatMap(send)))
            }
        case .events(let events): newest(events).map { .events(at: $0) }
        case .cost(let sends): cost(sends).map { .cost($0) }
        case .settledCodes(let window): settled(window).map { .settledCodes($0) }
        case .deliveries(let since, let settledBy): deliveries(since: since, settledBy: settledBy).map { .deliveries($0) }
        case .passkeyChallenge(let key): PasskeyReads.challenge(key).map { .passkeyChallenge($0) }
        case .passkey(let credentialID): PasskeyReads.passkey(credentialID).map { .passkey($0) }
        case .userPasskeys(let user): PasskeyReads.userPasskeys(user).map { .userPasskeys($0) }
        case .numberOwners(let user, let phone): numberOwners(user: user, phone: phone).map { .numberOwners($0) }
        case .recoveryCode(let phone, let digest, let account):
            recoveryCode(phone: phone, digest: digest, account: account).map { .recoveryCode($0) }
        case .dormancy(let phone, let device, let now): dormancy(phone: phone, device: device, now: now).map { .dormancy($0) }
        case .providerHealth(let channel): ProviderHealthQueries.health(channel).map { .providerHealth($0) }
        case .accountNumber(let user):
            .rows(Statement(accountNumberOf, user)) { rows in
                .done(
                    .accountNumber(
                        try rows.first.map {
                            AccountNumber(
                                phone: try $0.optional("phone"), detachedFrom: try $0.optional("detached_phone"),
                                unusedRecoveryCodes: try $0.get("unused"))
                        }))
            }
        }
    }

    /// The accounts on the number, or detached from it (a number that changed hands may have
    /// several), the one whose unused code the digest is first.
    static let recoveryCodeOf = SQL(
        recoveryColumns + """
             WHERE u.phone = $1 OR u.detached_phone = $1
            ORDER BY matches DESC, u.phone IS NULL, u.id LIMIT 1
            """)
    /// "Is this your account?": that account only, while it is on the number.
    static let recoveryCodeOfAccount = SQL(recoveryColumns + " WHERE u.phone = $1 AND u.id = $3")
    /// An account, whether the digest `$2` is one of its unused codes, and how many it has.
    static let recoveryColumns = """
        SELECT u.id AS user_id, u.phone AS user_phone, u.detached_phone,
               (SELECT count(*) FROM recovery_codes r WHERE r.user_id = u.id AND r.digest = $2 AND r.used_at IS NULL)
                   AS matches,
               (SELECT count(*) FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL) AS unused
        FROM users u
        """

    /// 1 when the person `user` (a column or a parameter) has a passkey that is not turned off,
    /// else 0: what the console's door and a dormant number's ways back both ask.
    static func hasLivePasskey(_ user: String) -> String {
        "CASE WHEN EXISTS (SELECT 1 FROM passkeys k WHERE k.user_id = \(user) AND k.flagged_at IS NULL) THEN 1 ELSE 0 END"
    }

    static let dormancyOf = SQL(
        """
        SELECT u.id AS user_id, u.number_proved_at,
               CASE WHEN EXISTS (SELECT 1 FROM devices d WHERE d.key = $2 AND d.user_id = u.id AND d.expires_at > $3)
                    THEN 1 ELSE 0 END AS remembered_here,
               \(hasLivePasskey("u.id")) AS has_passkey,
               CASE WHEN EXISTS (SELECT 1 FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL)
                    THEN 1 ELSE 0 END AS has_codes
        FROM users u WHERE u.phone = $1
        """)

    static func dormancy(phone: String, device: Data?, now: Double) -> Step<Dormancy?> {
        .rows(Statement(dormancyOf, phone, device, now)) { rows in
            .done(
                try rows.first.map { row in
                    Dormancy(
                        user: try row.get("user_id"), numberProvedAt: try row.get("number_proved_at"),
                        rememberedHere: try row.get("remembered_here") as Int64 != 0,
                        waysBack: WaysBack(
                            passkey: try row.get("has_passkey") as Int64 != 0,
                            recoveryCode: try row.get("has_codes") as Int64 != 0))
                })
        }
    }

    static func recoveryCode(phone: String, digest: Data, account: Int64?) -> Step<RecoveryCodeMatch> {
        let statement =
            account.map { Statement(recoveryCodeOfAccount, phone, digest, $0) }
            ?? Statement(recoveryCodeOf, phone, digest)
        return .rows(statement) { rows in
            var match = RecoveryCodeMatch(user: nil, matches: false, unused: 0)
            if let row = rows.first {
                let matches: Int = try row.get("matches")
                match = RecoveryCodeMatch(
                    user: try row.get("user_id"), matches: matches > 0, unused: try row.get("unused"),
                    phone: try row.optional("user_phone"), detachedFrom: try row.optional("detached_phone"))
            }
            return .rows(Statement(lastRecoveryTry, phone)) { rows in
                match.lastWrongTry = try rows.first?.optional("try_digest")
                return .done(match)
            }
        }
    }

    static let lastRecoveryTry = SQL(
        "SELECT try_digest FROM failed_recoveries WHERE phone = $1 ORDER BY failed_at DESC, id DESC LIMIT 1")

    static let numberOwnersOf = SQL(
        """
        SELECT (SELECT phone FROM users WHERE id = $1) AS account_phone,
               (SELECT id FROM users WHERE phone = $2) AS phone_holder,
               (SELECT count(*) FROM users WHERE id = $1 AND phone IS NULL) AS account_detached
        """)
    static let accountNumberOf = SQL(
        """
        SELECT u.phone, u.detached_phone,
               (SELECT count(*) FROM recovery_codes r WHERE r.user_id = u.id AND r.used_at IS NULL) AS unused
        FROM users u WHERE u.id = $1
        """)

    static func numberOwners(user: Int64, phone: String) -> Step<NumberOwners> {
        .rows(Statement(numberOwnersOf, user, phone)) { rows in
            .done(
                NumberOwners(
                    accountPhone: try rows.first?.optional("account_phone"),
                    phoneHolder: try rows.first?.optional("phone_holder"),
                    accountDetached: (try rows.first?.get("account_detached") as Int64?) == 1))
        }
    }

    // MARK: Sessions and devices

    static let sessionByKey = SQL(
        """
        SELECT s.pending_phone, s.last_seen_at, s.expires_at, s.absolute_expires_at, s.created_at, s.method,
               s.by_call, s.proved_at, s.claim_user_id, u.id AS user_id, u.phone AS user_phone
        FROM sessions s LEFT JOIN users u ON u.id = s.user_id
        WHERE s.key = $1
        """)

    /// The session row with this key, with its user's phone.
    public static func session(_ key: Data) -> Step<SessionRecord?> {
        .rows(Statement(sessionByKey, key)) { rows in
            .done(
                try rows.first.map { row in
                    SessionRecord(
                        pendingPhone: try row.optional("pending_phone"), userID: try row.optional("user_id"),
                        userPhone: try row.optional("user_phone"), lastSeenAt: try row.get("last_seen_at"),
                        expiresAt: try row.get("expires_at"), absoluteExpiresAt: try row.get("absolute_expires_at"),
                        createdAt: try row.get("created_at"),
                        method: SignInMethod(stored: try row.get("method"), byCall: try row.get("by_call")) ?? .code,
                        provedAt: try row.optional("proved_at"), claimUserID: try row.optional("claim_user_id"))
                })
        }
    }

    static let deviceByKey = SQL(
        """
        SELECT d.id, d.user_id, u.phone, d.created_at, d.expires_at, d.session_key
        FROM devices d JOIN users u ON u.id = d.user_id WHERE d.key = $1
        """)

    static func device(_ key: Data) -> Step<DeviceRecord?> {
        .rows(Statement(deviceByKey, key)) { rows in
            .done(
                try rows.first.map { row in
                    DeviceRecord(
                        id: try row.get("id"), userID: try row.get("user_id"), phone: try row.get("phone"),
                        createdAt: try row.get("created_at"), expiresAt: try row.get("expires_at"),
                        session: try row.optional("session_key"))
                })
        }
    }

    static let liveSessions = SQL(
        """
        SELECT key, user_agent, api, created_at, last_seen_at, expires_at FROM sessions
        WHERE user_id = $1 AND expires_at > $2 ORDER BY last_seen_at DESC
        """)
    static let liveDevices = SQL(
        """
        SELECT id, key, user_agent, created_at, last_used_at, expires_at, session_key FROM devices
        WHERE user_id = $1 AND expires_at > $2 ORDER BY last_used_at DESC
        """)

    static func signedInPlaces(_ places: PlacesRead) -> Step<SignedInPlaces> {
        .rows(Statement(liveSessions, places.user, places.now)) { sessionRows in
            let sessions = try sessionRows.map { row in
                SignedInPlaces.Session(
                    key: try row.get("key"), userAgent: try row.optional("user_agent"), api: try row.get("api"),
                    signedInAt: try row.get("created_at"), lastSeenAt: try row.get("last_seen_at"),
                    expiresAt: try row.get("expires_at"))
            }
            return .rows(Statement(liveDevices, places.user, places.now)) { deviceRows in
                let devices = try deviceRows.map { row in
                    SignedInPlaces.Device(
                        id: try row.get("id"), key: try row.get("key"), userAgent: try row.optional("user_agent"),
                        rememberedAt: try row.get("created_at"), lastUsedAt: try row.get("last_used_at"),
                        expiresAt: try row.get("expires_at"), session: try row.optional("session_key"))
                }
                return .done(SignedInPlaces(sessions: sessions, devices: devices))
            }
        }
    }

    // MARK: Codes and sends

    /// A send's columns, named as ``send(_:)`` reads them.
    static let sendColumns = """
        s.reference AS send_reference, s.phone AS send_phone, s.channel AS send_channel, s.sent_at AS send_sent_at,
        s.provider_id AS send_provider_id, s.status AS send_status, s.status_at AS send_status_at,
        s.error_code AS send_error_code
        """

    static let sendByReference = SQL("SELECT \(sendColumns) FROM code_sends s WHERE s.reference = $1")

    /// The send in `row`'s `send_` columns; nil when its reference is NULL (a code without one).
    static func send(_ row: any SQLRow) throws -> SendRecord? {
        guard let reference = try row.optional("send_reference", as: String.self) else { return nil }
        return try SendRecord.stored(
            reference: reference, phone: try row.get("send_phone"), channel: try row.get("send_channel"),
            sentAt: try row.get("send_sent_at"), providerID: try row.optional("send_provider_id"),
            status: try row.get("send_status"), statusAt: try row.optional("send_status_at"),
            errorCode: try row.optional("send_error_code"))
    }

    private static func codeQuery(where condition: String) -> SQL {
        SQL(
            """
            SELECT v.phone, v.code_digest, v.sent_at, v.expires_at, v.failed_attempts, v.holder, v.last_wrong_digest,
                   \(sendColumns)
            FROM verifications v LEFT JOIN code_sends s ON s.reference = v.send_reference
            WHERE \(condition)
            """)
    }
    static let codeByPhone = codeQuery(where: "v.phone = $1")
    static let codeByHolder = codeQuery(where: "v.holder = $1")

    /// The code (with its number and its send) `statement` finds.
    static func code(_ statement: Statement) -> Step<HeldCode?> {
        .rows(statement) { rows in
            .done(
                try rows.first.map { row in
                    HeldCode(
                        phone: try row.get("phone"),
                        code: StoredCode(
                            digest: try row.get("code_digest"), sentAt: try row.get("sent_at"),
                            expiresAt: try row.get("expires_at"), failedAttempts: try row.get("failed_attempts"),
                            holder: try row.optional("holder"), lastWrongDigest: try row.optional("last_wrong_digest"),
                            send: try send(row)))
                })
        }
    }
}
