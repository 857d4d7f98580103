import AuthCore
import Foundation
import Logging
import PostgresNIO

/// ``AuthStore`` on PostgreSQL, shared by every app instance: reads what the rules name and
/// writes what they decided, one statement each.
///
/// A transaction first takes the locks its ``ReadList`` names (`pg_advisory_xact_lock` on the
/// phone number and the client address, released at commit), so a code's attempt count, the
/// resend cooldown and the sending limits hold however many requests run at once on however
/// many instances; requests for different numbers never wait for each other.
public struct PostgresAuthStore: AuthStore {
    private let database: PostgresBackend

    public init(database: PostgresBackend) {
        self.database = database
    }

    public func transaction<Outcome: Sendable>(
        reading list: ReadList, decide: @escaping @Sendable ([AuthAnswer]) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome> {
        let logger = database.logger
        return try await database.transaction { connection in
            try await connection.lock(
                list.locks.map { lock in
                    switch lock {
                    case .phone(let phone): "phone:" + phone
                    case .client(let client): "client:" + client
                    case .allSends: "sends:all"
                    case .send(let reference): "send:" + reference.hex
                    case .passkey(let key): "passkey:" + key.base64EncodedString()
                    }
                }, logger)
            let decision = try decide(try await Self.answers(connection, list.reads, logger))
            let user = try await Self.apply(connection, decision.changes, logger)
            return Applied(decision.outcome, signedInUserID: user)
        }
    }

    public func read(_ reads: [AuthRead]) async throws -> [AuthAnswer] {
        let logger = database.logger
        return try await database.withConnection { connection in try await Self.answers(connection, reads, logger) }
    }

    public func apply(_ changes: [AuthChange]) async throws {
        let logger = database.logger
        _ = try await database.transaction { connection in try await Self.apply(connection, changes, logger) }
    }

    public func purge(_ cutoffs: PurgeCutoffs) async throws -> Int {
        let counts = try await database.rows(
            """
            WITH s AS (DELETE FROM sessions WHERE expires_at <= \(cutoffs.sessionsExpiredBy) RETURNING 1),
                 v AS (DELETE FROM verifications WHERE expires_at <= \(cutoffs.codesExpiredBy) RETURNING 1),
                 c AS (DELETE FROM code_sends WHERE sent_at <= \(cutoffs.sendsBefore) RETURNING 1),
                 e AS (DELETE FROM devices WHERE expires_at <= \(cutoffs.sessionsExpiredBy) RETURNING 1),
                 f AS (DELETE FROM failed_checks WHERE failed_at <= \(cutoffs.failuresBefore) RETURNING 1),
                 i AS (DELETE FROM sign_in_starts WHERE started_at <= \(cutoffs.signInStartsBefore) RETURNING 1),
                 p AS (DELETE FROM passkey_challenges WHERE expires_at <= \(cutoffs.sessionsExpiredBy) RETURNING 1)
            SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM v) + (SELECT count(*) FROM c)
                 + (SELECT count(*) FROM e) + (SELECT count(*) FROM f) + (SELECT count(*) FROM i)
                 + (SELECT count(*) FROM p)
            """)
        return try counts.first?.decode(Int.self) ?? 0
    }

    // MARK: Reading

    /// The session row with this key, with its user's phone.
    static func session(_ connection: PostgresConnection, _ key: Data, _ logger: Logger) async throws
        -> SessionRecord?
    {
        try await connection.rows(
            """
            SELECT s.pending_phone, u.id, u.phone, s.last_seen_at, s.expires_at, s.absolute_expires_at, s.created_at,
                   s.method
            FROM sessions s LEFT JOIN users u ON u.id = s.user_id
            WHERE s.key = \(key)
            """, logger
        ).first.map { row in
            let (pending, userID, userPhone, lastSeen, expires, absolute, created, method) = try row.decode(
                (String?, Int64?, String?, Double, Double, Double, Double, String).self)
            return SessionRecord(
                pendingPhone: pending, userID: userID, userPhone: userPhone, lastSeenAt: lastSeen, expiresAt: expires,
                absoluteExpiresAt: absolute, createdAt: created, method: SignInMethod(rawValue: method) ?? .code)
        }
    }

    /// What the database holds for each of `reads`, in order.
    private static func answers(_ connection: PostgresConnection, _ reads: [AuthRead], _ logger: Logger)
        async throws -> [AuthAnswer]
    {
        var answers: [AuthAnswer] = []
        answers.reserveCapacity(reads.count)
        for read in reads { answers.append(try await answer(connection, read, logger)) }
        return answers
    }

    /// What the database holds for `read`, in one statement (two for a user's places).
    private static func answer(_ connection: PostgresConnection, _ read: AuthRead, _ logger: Logger) async throws
        -> AuthAnswer
    {
        switch read {
        case .session(let key): return .session(try await session(connection, key, logger))
        case .code(let phone): return .code(try await code(connection, "v.phone = \(phone)", logger)?.code)
        case .heldCode(let holder): return .heldCode(try await code(connection, "v.holder = \(holder)", logger))
        case .device(let key):
            return .device(
                try await connection.rows(
                    """
                    SELECT d.id, d.user_id, u.phone, d.created_at, d.expires_at, d.session_key
                    FROM devices d JOIN users u ON u.id = d.user_id WHERE d.key = \(key)
                    """, logger
                ).first.map { row in
                    let (id, user, phone, created, expires, session) = try row.decode(
                        (Int64, Int64, String, Double, Double, Data?).self)
                    return DeviceRecord(
                        id: id, userID: user, phone: phone, createdAt: created, expiresAt: expires, session: session)
                })
        case .signedInPlaces(let places): return .signedInPlaces(try await signedInPlaces(connection, places, logger))
        case .send(let reference):
            return .send(
                try await connection.rows(
                    "SELECT \(unescaped: sendColumns("s")) FROM code_sends s WHERE s.reference = \(reference.hex)",
                    logger
                ).first.flatMap { row in try send(row, from: 0) })
        case .events(let events): return .events(at: try await newest(connection, events, logger))
        case .cost(let sends): return .cost(try await count(connection, sends, logger))
        case .settledCodes(let window): return .settledCodes(try await settled(connection, window, logger))
        case .deliveries(let since):
            let row = try await connection.rows(
                """
                SELECT count(*) FILTER (WHERE status = 'delivered'),
                       count(*) FILTER (WHERE status IN ('undelivered', 'failed'))
                FROM code_sends WHERE sent_at > \(since)
                """, logger
            ).first
            let (delivered, notDelivered) = try row?.decode((Int, Int).self) ?? (0, 0)
            return .deliveries(Deliveries(delivered: delivered, notDelivered: notDelivered))
        case .passkeyChallenge(let key):
            return .passkeyChallenge(try await passkeyChallenge(connection, key, logger))
        case .passkey(let credentialID):
            return .passkey(try await passkeys(connection, "p.credential_id = \(credentialID)", logger).first)
        case .userPasskeys(let user): return .userPasskeys(try await userPasskeys(connection, user, logger))
        }
    }

    private static func signedInPlaces(_ connection: PostgresConnection, _ places: PlacesRead, _ logger: Logger)
        async throws -> SignedInPlaces
    {
        let sessions = try await connection.rows(
            """
            SELECT key, user_agent, api, created_at, last_seen_at, expires_at FROM sessions
            WHERE user_id = \(places.user) AND expires_at > \(places.now) ORDER BY last_seen_at DESC
            """, logger
        ).map { row in
            let (key, agent, api, created, seen, expires) = try row.decode(
                (Data, String?, Bool, Double, Double, Double).self)
            return SignedInPlaces.Session(
                key: key, userAgent: agent, api: api, signedInAt: created, lastSeenAt: seen, expiresAt: expires)
        }
        let devices = try await connection.rows(
            """
            SELECT id, key, user_agent, created_at, last_used_at, expires_at, session_key FROM devices
            WHERE user_id = \(places.user) AND expires_at > \(places.now) ORDER BY last_used_at DESC
            """, logger
        ).map { row in
            let (id, key, agent, created, used, expires, session) = try row.decode(
                (Int64, Data, String?, Double, Double, Double, Data?).self)
            return SignedInPlaces.Device(
                id: id, key: key, userAgent: agent, rememberedAt: created, lastUsedAt: used, expiresAt: expires,
                session: session)
        }
        return SignedInPlaces(sessions: sessions, devices: devices)
    }

    /// The time of the event at `events.position` (0 = the newest) among the subject's events
    /// after `events.since`, through the (subject, time) index: one row read however many events
    /// there are. Every sliding-window limit is this one statement on its own table and column.
    private static func newest(_ connection: PostgresConnection, _ events: RecentEvents, _ logger: Logger)
        async throws -> Double?
    {
        // (table, time column, condition on the subject $1); an exchange's numbers are a range
        // of the phone index: from the prefix up to the prefix followed by ':' (after '9').
        let (table, time, subject): (String, String, String) =
            switch events.kind {
            case .phoneSends: ("code_sends", "sent_at", "phone = $1")
            case .phoneCalls: ("code_sends", "sent_at", "phone = $1 AND channel = 'voice'")
            case .clientSends: ("code_sends", "sent_at", "client = $1")
            case .exchangeSends: ("code_sends", "sent_at", "phone > $1 AND phone < ($1 || ':')")
            case .phoneFailures: ("failed_checks", "failed_at", "phone = $1")
            case .clientFailures: ("failed_checks", "failed_at", "client = $1")
            case .clientSignIns: ("sign_in_starts", "started_at", "client = $1")
            case .clientPasskeyChallenges: ("passkey_challenges", "created_at", "client = $1")
            }
        var binds = PostgresBindings(capacity: 3)
        binds.append(events.subject)
        binds.append(events.since)
        binds.append(events.position)
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT \(time) FROM \(table) WHERE \(subject) AND \(time) > $2
                ORDER BY \(time) DESC LIMIT 1 OFFSET $3
                """, binds: binds)
        return try await connection.rows(query, logger).first?.decode(Double.self)
    }

    /// The settled codes to numbers starting with the window's prefix: how many, how many used,
    /// and when the one at the asked position went (the prefix's numbers are a range of the
    /// phone index, up to the prefix followed by ':', the character after '9').
    private static func settled(_ connection: PostgresConnection, _ window: SettledCodes, _ logger: Logger)
        async throws -> Conversion
    {
        let (low, high) = (window.prefix, window.prefix + ":")
        let row = try await connection.rows(
            """
            SELECT count(*)::bigint, count(verified_at)::bigint, (
                SELECT sent_at FROM code_sends
                WHERE phone > \(low) AND phone < \(high) AND sent_at > \(window.since) AND sent_at <= \(window.settledBy)
                ORDER BY sent_at DESC LIMIT 1 OFFSET \(window.position))
            FROM code_sends
            WHERE phone > \(low) AND phone < \(high) AND sent_at > \(window.since) AND sent_at <= \(window.settledBy)
            """, logger
        ).first
        let (sent, verified, at) = try row?.decode((Int, Int, Double?).self) ?? (0, 0, nil)
        return Conversion(sent: sent, verified: verified, atPosition: at)
    }

    /// The code (with its number and its send) the condition on `v` finds: the condition's own
    /// binds are the query's only ones.
    private static func code(_ connection: PostgresConnection, _ condition: PostgresQuery, _ logger: Logger)
        async throws -> HeldCode?
    {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT v.code_digest, v.sent_at, v.expires_at, v.failed_attempts, v.holder, v.last_wrong_digest,
                       \(sendColumns("s")), v.phone
                FROM verifications v LEFT JOIN code_sends s ON s.reference = v.send_reference
                WHERE \(condition.sql)
                """, binds: condition.binds)
        return try await connection.rows(query, logger).first.map { row in
            let (digest, sentAt, expiresAt, failed, holder, lastWrong) = try row.decode(
                (Data, Double, Double, Int, Data?, Data?).self)
            return HeldCode(
                phone: try row.makeRandomAccess()[14].decode(String.self),
                code: StoredCode(
                    digest: digest, sentAt: sentAt, expiresAt: expiresAt, failedAttempts: failed, holder: holder,
                    lastWrongDigest: lastWrong, send: try send(row, from: 6)))
        }
    }

    /// A send's columns, in the order ``send(_:from:)`` reads them.
    private static func sendColumns(_ table: String) -> String {
        ["reference", "phone", "channel", "sent_at", "provider_id", "status", "status_at", "error_code"]
            .map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The send in `row`'s columns from `start` on (``sendColumns(_:)``); `nil` when the
    /// reference is NULL.
    private static func send(_ row: PostgresRow, from start: Int) throws -> SendRecord? {
        let columns = Array(row.makeRandomAccess()[start..<(start + 8)])
        guard let reference = try columns[0].decode(String?.self) else { return nil }
        return try SendRecord.stored(
            reference: reference, phone: try columns[1].decode(String.self),
            channel: try columns[2].decode(String.self), sentAt: try columns[3].decode(Double.self),
            providerID: try columns[4].decode(String?.self), status: try columns[5].decode(String.self),
            statusAt: try columns[6].decode(Double?.self), errorCode: try columns[7].decode(String?.self))
    }

    /// What the newest sends to anyone since a time cost, added up through the (time, cost)
    /// index until the sum reaches `reaching` (every send costs at least 1, so the LIMIT stops
    /// the walk there: it never reads more rows than the budget allows), and the send at which
    /// it did, if it did.
    private static func count(_ connection: PostgresConnection, _ sends: AllSends, _ logger: Logger) async throws
        -> SendCount
    {
        let row = try await connection.rows(
            """
            SELECT coalesce(max(running), 0)::bigint, max(sent_at) FILTER (WHERE running >= \(sends.reaching)) FROM (
                SELECT sent_at, sum(cost) OVER (ORDER BY sent_at DESC ROWS UNBOUNDED PRECEDING) AS running FROM (
                    SELECT sent_at, cost FROM code_sends WHERE sent_at > \(sends.since)
                    ORDER BY sent_at DESC LIMIT \(sends.reaching)) AS newest) AS counted
            """, logger
        ).first
        guard let (count, reachedAt) = try row?.decode((Int, Double?).self) else {
            return SendCount(count: 0, reachedAt: nil)
        }
        return SendCount(count: count, reachedAt: reachedAt)
    }

    // MARK: Writing

    /// Applies `changes` in order; returns the id of the user a sign-in wrote, if one did.
    private static func apply(_ connection: PostgresConnection, _ changes: [AuthChange], _ logger: Logger)
        async throws -> Int64?
    {
        var signedInUser: Int64?
        for change in changes {
            switch change {
            case .deleteSession(let key):
                try await connection.rows("DELETE FROM sessions WHERE key = \(key)", logger)
            case .recordSend(let phone, let client, let at, let channel, let cost, let reference):
                try await connection.rows(
                    """
                    INSERT INTO code_sends (phone, client, sent_at, channel, cost, reference)
                    VALUES (\(phone), \(client), \(at), \(channel.rawValue), \(cost), \(reference?.hex))
                    """, logger)
            case .markVerified(let reference, let at):
                try await connection.rows(
                    "UPDATE code_sends SET verified_at = \(at) WHERE reference = \(reference.hex)", logger)
            case .recordDelivery(let reference, let report, let at):
                try await connection.rows(
                    """
                    UPDATE code_sends SET status = \(report.status.rawValue), status_at = \(at),
                                          provider_id = coalesce(\(report.providerID), provider_id),
                                          error_code = \(report.errorCode)
                    WHERE reference = \(reference.hex)
                    """, logger)
            case .forgetNewestSend(let phone):
                try await connection.rows(
                    "DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends WHERE phone = \(phone))", logger)
            case .storeCode(let phone, let code):
                try await connection.rows(
                    """
                    INSERT INTO verifications
                        (phone, code_digest, sent_at, expires_at, failed_attempts, holder, last_wrong_digest,
                         send_reference)
                    VALUES (\(phone), \(code.digest), \(code.sentAt), \(code.expiresAt), \(code.failedAttempts),
                            \(code.holder), \(code.lastWrongDigest), \(code.send?.reference.hex))
                    ON CONFLICT (phone) DO UPDATE SET
                        code_digest = excluded.code_digest, sent_at = excluded.sent_at,
                        expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts,
                        holder = excluded.holder, last_wrong_digest = excluded.last_wrong_digest,
                        send_reference = excluded.send_reference
                    """, logger)
            case .deleteCode(let phone):
                try await connection.rows("DELETE FROM verifications WHERE phone = \(phone)", logger)
            case .makePending(let session, let phone, let at, let until):
                try await connection.rows(
                    """
                    INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                    VALUES (\(session), \(phone), NULL, \(at), \(at), \(until), \(until))
                    ON CONFLICT (key) DO UPDATE SET
                        pending_phone = excluded.pending_phone, user_id = NULL,
                        last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at,
                        absolute_expires_at = excluded.absolute_expires_at
                    """, logger)
            case .countWrongTry(let phone, let digest):
                try await connection.rows(
                    """
                    UPDATE verifications SET failed_attempts = failed_attempts + 1, last_wrong_digest = \(digest)
                    WHERE phone = \(phone)
                    """, logger)
            case .recordFailure(let phone, let client, let at):
                try await connection.rows(
                    "INSERT INTO failed_checks (phone, client, failed_at) VALUES (\(phone), \(client), \(at))", logger)
            case .signIn(
                let phone, let session, let at, let expiresAt, let absoluteExpiresAt, let userAgent, let api, let method
            ):
                let user = try await connection.rows(
                    """
                    INSERT INTO users (phone, created_at, last_sign_in_at) VALUES (\(phone), \(at), \(at))
                    ON CONFLICT (phone) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at
                    RETURNING id
                    """, logger
                ).first?.decode(Int64.self)
                try await connection.rows(
                    """
                    INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at,
                                          absolute_expires_at, user_agent, api, method)
                    VALUES (\(session), NULL, \(user), \(at), \(at), \(expiresAt), \(absoluteExpiresAt),
                            \(userAgent.map { String($0.prefix(512)) }), \(api), \(method.rawValue))
                    """, logger)
                signedInUser = user
            case .rememberDevice(let key, let phone, let at, let until, let userAgent, let session):
                let agent = userAgent.map { String($0.prefix(512)) }
                try await connection.rows(
                    """
                    INSERT INTO devices (key, user_id, created_at, last_used_at, expires_at, user_agent, session_key)
                    SELECT \(key), id, \(at), \(at), \(until), \(agent), \(session) FROM users WHERE phone = \(phone)
                    """, logger)
            case .rotateDevice(let old, let new, let at, let session):
                try await connection.rows(
                    "UPDATE devices SET key = \(new), last_used_at = \(at), session_key = \(session) WHERE key = \(old)",
                    logger)
            case .forgetDevice(let key):
                try await connection.rows("DELETE FROM devices WHERE key = \(key)", logger)
            case .touchSession(let key, let at, let expiresAt):
                try await connection.rows(
                    """
                    UPDATE sessions SET last_seen_at = \(at), expires_at = \(expiresAt)
                    WHERE key = \(key) AND user_id IS NOT NULL
                    """, logger)
            case .recordSignInStart(let client, let at):
                try await connection.rows(
                    "INSERT INTO sign_in_starts (client, started_at) VALUES (\(client), \(at))", logger)
            case .storePasskeyChallenge, .deletePasskeyChallenge, .givePasskeyHandle, .addPasskey, .usePasskey,
                .flagPasskey, .renamePasskey, .removePasskey, .dismissPasskeyOffer:
                try await applyPasskeyChange(connection, change, logger)
            }
        }
        return signedInUser
    }
}
