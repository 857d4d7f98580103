import AuthCore
import Foundation
import GRDB

/// ``AuthStore`` on SQLite through GRDB: reads what the rules name and writes what they
/// decided, one statement each.
///
/// A transaction is one GRDB `write`; SQLite runs write transactions one at a time, so the
/// limits and attempt counts ``SignInRules`` decides hold under any concurrency (the locks an
/// ``ReadList`` names are implied). Plain reads run on a worker thread, never on an event loop.
public struct SQLiteAuthStore: AuthStore {
    private let writer: any DatabaseWriter

    public init(database: SQLiteDatabase) {
        self.writer = database.writer
    }

    public func transaction<Outcome: Sendable>(
        reading list: ReadList, decide: @escaping @Sendable ([AuthAnswer]) throws -> AuthDecision<Outcome>
    ) async throws -> Applied<Outcome> {
        try await writer.translatedWrite { db in
            let decision = try decide(try list.reads.map { try Self.answer(db, $0) })
            return Applied(decision.outcome, signedInUserID: try Self.apply(db, decision.changes))
        }
    }

    public func read(_ reads: [AuthRead]) async throws -> [AuthAnswer] {
        try await writer.readOnWorkerThread { db in try reads.map { try Self.answer(db, $0) } }
    }

    public func apply(_ changes: [AuthChange]) async throws {
        try await writer.translatedWrite { db in _ = try Self.apply(db, changes) }
    }

    public func purge(_ cutoffs: PurgeCutoffs) async throws -> Int {
        try await writer.translatedWrite { db in
            var count = 0
            for (sql, cutoff) in [
                ("DELETE FROM sessions WHERE expires_at <= ?", cutoffs.sessionsExpiredBy),
                ("DELETE FROM devices WHERE expires_at <= ?", cutoffs.sessionsExpiredBy),
                ("DELETE FROM verifications WHERE expires_at <= ?", cutoffs.codesExpiredBy),
                ("DELETE FROM code_sends WHERE sent_at <= ?", cutoffs.sendsBefore),
                ("DELETE FROM failed_checks WHERE failed_at <= ?", cutoffs.failuresBefore),
                ("DELETE FROM sign_in_starts WHERE started_at <= ?", cutoffs.signInStartsBefore),
                ("DELETE FROM passkey_challenges WHERE expires_at <= ?", cutoffs.sessionsExpiredBy),
            ] {
                try db.cachedStatement(sql: sql).execute(arguments: [cutoff])
                count += db.changesCount
            }
            return count
        }
    }

    // MARK: Reading

    /// What the database holds for `read`, in one statement (two for a user's places).
    static func answer(_ db: Database, _ read: AuthRead) throws -> AuthAnswer {
        switch read {
        case .session(let key): .session(try session(db, key))
        case .code(let phone): .code(try code(db, where: "v.phone = ?", phone)?.code)
        case .heldCode(let holder): .heldCode(try code(db, where: "v.holder = ?", holder))
        case .device(let key): .device(try device(db, key))
        case .signedInPlaces(let places): .signedInPlaces(try signedInPlaces(db, places))
        case .send(let reference):
            .send(
                try Row.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            SELECT reference, phone, channel, sent_at, provider_id, status, status_at, error_code
                            FROM code_sends WHERE reference = ?
                            """),
                    arguments: [reference.hex]
                ).flatMap { row in try send(row, from: 0) })
        case .events(let events): .events(at: try newest(db, events))
        case .cost(let sends): .cost(try count(db, sends))
        case .settledCodes(let window): .settledCodes(try settled(db, window))
        case .deliveries(let since): .deliveries(try deliveries(db, since: since))
        case .passkeyChallenge(let key): .passkeyChallenge(try passkeyChallenge(db, key))
        case .passkey(let credentialID):
            .passkey(try passkeys(db, where: "p.credential_id = ?", credentialID).first)
        case .userPasskeys(let user): .userPasskeys(try userPasskeys(db, user))
        }
    }

    /// The session row with this key, with its user's phone.
    static func session(_ db: Database, _ key: Data) throws -> SessionRecord? {
        try Row.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT s.pending_phone, s.last_seen_at, s.expires_at, s.absolute_expires_at,
                           u.id AS user_id, u.phone AS user_phone, s.created_at, s.method
                    FROM sessions s LEFT JOIN users u ON u.id = s.user_id
                    WHERE s.key = ?
                    """),
            arguments: [key]
        ).map { row in
            // By position, as selected: a name lookup costs a string comparison per column.
            SessionRecord(
                pendingPhone: row[0], userID: row[4], userPhone: row[5], lastSeenAt: row[1], expiresAt: row[2],
                absoluteExpiresAt: row[3], createdAt: row[6], method: SignInMethod(rawValue: row[7]) ?? .code)
        }
    }

    private static func device(_ db: Database, _ key: Data) throws -> DeviceRecord? {
        try Row.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT d.id, d.user_id, u.phone, d.created_at, d.expires_at, d.session_key
                    FROM devices d JOIN users u ON u.id = d.user_id WHERE d.key = ?
                    """),
            arguments: [key]
        ).map { row in
            DeviceRecord(
                id: row[0], userID: row[1], phone: row[2], createdAt: row[3], expiresAt: row[4], session: row[5])
        }
    }

    private static func signedInPlaces(_ db: Database, _ places: PlacesRead) throws -> SignedInPlaces {
        let sessions = try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT key, user_agent, api, created_at, last_seen_at, expires_at FROM sessions
                    WHERE user_id = ? AND expires_at > ? ORDER BY last_seen_at DESC
                    """),
            arguments: [places.user, places.now]
        ).map { row in
            SignedInPlaces.Session(
                key: row[0], userAgent: row[1], api: row[2], signedInAt: row[3], lastSeenAt: row[4],
                expiresAt: row[5])
        }
        let devices = try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT id, key, user_agent, created_at, last_used_at, expires_at, session_key FROM devices
                    WHERE user_id = ? AND expires_at > ? ORDER BY last_used_at DESC
                    """),
            arguments: [places.user, places.now]
        ).map { row in
            SignedInPlaces.Device(
                id: row[0], key: row[1], userAgent: row[2], rememberedAt: row[3], lastUsedAt: row[4],
                expiresAt: row[5], session: row[6])
        }
        return SignedInPlaces(sessions: sessions, devices: devices)
    }

    /// The sends since `since` whose status is final.
    private static func deliveries(_ db: Database, since: Double) throws -> Deliveries {
        let counts = try Row.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT coalesce(sum(status = 'delivered'), 0), coalesce(sum(status IN ('undelivered', 'failed')), 0)
                    FROM code_sends WHERE sent_at > ?
                    """),
            arguments: [since])
        return Deliveries(delivered: counts?[0] ?? 0, notDelivered: counts?[1] ?? 0)
    }

    /// The time of the event at `events.position` (0 = the newest) among the subject's events
    /// after `events.since`, through the (subject, time) index: one row read however many events
    /// there are. Every sliding-window limit is this one statement on its own table and column.
    private static func newest(_ db: Database, _ events: RecentEvents) throws -> Double? {
        // (table, time column, condition on the subject); an exchange's numbers are a range of
        // the phone index: from the prefix up to the prefix followed by ':' (after '9').
        let (table, time, subject): (String, String, String) =
            switch events.kind {
            case .phoneSends: ("code_sends", "sent_at", "phone = ?1")
            case .phoneCalls: ("code_sends", "sent_at", "phone = ?1 AND channel = 'voice'")
            case .clientSends: ("code_sends", "sent_at", "client = ?1")
            case .exchangeSends: ("code_sends", "sent_at", "phone > ?1 AND phone < (?1 || ':')")
            case .phoneFailures: ("failed_checks", "failed_at", "phone = ?1")
            case .clientFailures: ("failed_checks", "failed_at", "client = ?1")
            case .clientSignIns: ("sign_in_starts", "started_at", "client = ?1")
            case .clientPasskeyChallenges: ("passkey_challenges", "created_at", "client = ?1")
            }
        return try Double.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT \(time) FROM \(table) WHERE \(subject) AND \(time) > ?2
                    ORDER BY \(time) DESC LIMIT 1 OFFSET ?3
                    """),
            arguments: [events.subject, events.since, events.position])
    }

    /// The settled codes to numbers starting with the window's prefix: how many, how many used,
    /// and when the one at the asked position went. (The prefix's numbers are a range of the
    /// phone index: from the prefix up to the prefix followed by ':', the character after '9'.)
    private static func settled(_ db: Database, _ window: SettledCodes) throws -> Conversion {
        let (low, high) = (window.prefix, window.prefix + ":")
        let counts = try Row.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT count(*), count(verified_at) FROM code_sends
                    WHERE phone > ? AND phone < ? AND sent_at > ? AND sent_at <= ?
                    """),
            arguments: [low, high, window.since, window.settledBy])
        let at = try Double.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT sent_at FROM code_sends WHERE phone > ? AND phone < ? AND sent_at > ? AND sent_at <= ?
                    ORDER BY sent_at DESC LIMIT 1 OFFSET ?
                    """),
            arguments: [low, high, window.since, window.settledBy, window.position])
        return Conversion(sent: counts?[0] ?? 0, verified: counts?[1] ?? 0, atPosition: at)
    }

    /// The code (with its number and its send) the condition on `v` finds.
    private static func code(_ db: Database, where condition: String, _ value: some DatabaseValueConvertible)
        throws -> HeldCode?
    {
        try Row.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT v.code_digest, v.sent_at, v.expires_at, v.failed_attempts, v.holder, v.last_wrong_digest,
                           s.reference, s.phone, s.channel, s.sent_at, s.provider_id, s.status, s.status_at,
                           s.error_code, v.phone
                    FROM verifications v LEFT JOIN code_sends s ON s.reference = v.send_reference
                    WHERE \(condition)
                    """),
            arguments: [value]
        ).map { row in
            HeldCode(
                phone: row[14],
                code: StoredCode(
                    digest: row[0], sentAt: row[1], expiresAt: row[2], failedAttempts: row[3], holder: row[4],
                    lastWrongDigest: row[5], send: try send(row, from: 6)))
        }
    }

    /// The send in `row`'s columns from `start` on (reference, phone, channel, sent_at,
    /// provider_id, status, status_at, error_code); `nil` when the reference is NULL.
    private static func send(_ row: Row, from start: Int) throws -> SendRecord? {
        guard let reference: String = row[start] else { return nil }
        return try SendRecord.stored(
            reference: reference, phone: row[start + 1], channel: row[start + 2], sentAt: row[start + 3],
            providerID: row[start + 4], status: row[start + 5], statusAt: row[start + 6], errorCode: row[start + 7])
    }

    /// What the sends to anyone since a time cost, and the send at which the cost counted from
    /// the newest reaches `reaching`, read only when the window holds that much (the budget is
    /// full). The cost is the count of the time index plus what the few sends costing more than
    /// a text (calls) add, from their partial index: summing every send's cost read a column per
    /// entry, 1.24x the CPU of a whole sign-in under load.
    ///
    /// A plain aggregate, not one bounded by a LIMITed subquery: SQLite runs such a subquery as a
    /// co-routine, 3.6 times the cost per row of a plain aggregate on the covering index (50,000
    /// sends: 1,376 against 379 µs), and the window never holds more than the budget anyway,
    /// since the rules refuse a send once it is full and every send holds one lock.
    private static func count(_ db: Database, _ sends: AllSends) throws -> SendCount {
        let count =
            try Int.fetchOne(
                try db.cachedStatement(
                    sql: """
                        SELECT count(*) + (SELECT coalesce(sum(cost - 1), 0) FROM code_sends WHERE cost > 1 AND sent_at > ?1)
                        FROM code_sends WHERE sent_at > ?1
                        """),
                arguments: [sends.since]) ?? 0
        guard count >= sends.reaching else { return SendCount(count: count, reachedAt: nil) }
        let at = try Double.fetchOne(
            try db.cachedStatement(
                sql: """
                    SELECT max(sent_at) FROM (
                        SELECT sent_at, sum(cost) OVER (ORDER BY sent_at DESC ROWS UNBOUNDED PRECEDING) AS running
                        FROM code_sends WHERE sent_at > ?)
                    WHERE running >= ?
                    """),
            arguments: [sends.since, sends.reaching])
        return SendCount(count: count, reachedAt: at)
    }

    // MARK: Writing

    /// Applies `changes` in order; returns the id of the user a sign-in wrote, if one did.
    static func apply(_ db: Database, _ changes: [AuthChange]) throws -> Int64? {
        var signedInUser: Int64?
        for change in changes {
            switch change {
            case .deleteSession(let key):
                try db.cachedStatement(sql: "DELETE FROM sessions WHERE key = ?").execute(arguments: [key])
            case .recordSend(let phone, let client, let at, let channel, let cost, let reference):
                try db.cachedStatement(
                    sql:
                        "INSERT INTO code_sends (phone, client, sent_at, channel, cost, reference) VALUES (?, ?, ?, ?, ?, ?)"
                ).execute(arguments: [phone, client, at, channel.rawValue, cost, reference?.hex])
            case .markVerified(let reference, let at):
                try db.cachedStatement(sql: "UPDATE code_sends SET verified_at = ? WHERE reference = ?")
                    .execute(arguments: [at, reference.hex])
            case .recordDelivery(let reference, let report, let at):
                try db.cachedStatement(
                    sql: """
                        UPDATE code_sends SET status = ?, status_at = ?, provider_id = coalesce(?, provider_id),
                                              error_code = ?
                        WHERE reference = ?
                        """
                ).execute(arguments: [report.status.rawValue, at, report.providerID, report.errorCode, reference.hex])
            case .forgetNewestSend(let phone):
                try db.cachedStatement(
                    sql: "DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends WHERE phone = ?)"
                ).execute(arguments: [phone])
            case .storeCode(let phone, let code):
                try db.cachedStatement(
                    sql: """
                        INSERT INTO verifications
                            (phone, code_digest, sent_at, expires_at, failed_attempts, holder, last_wrong_digest,
                             send_reference)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT(phone) DO UPDATE SET
                            code_digest = excluded.code_digest, sent_at = excluded.sent_at,
                            expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts,
                            holder = excluded.holder, last_wrong_digest = excluded.last_wrong_digest,
                            send_reference = excluded.send_reference
                        """
                ).execute(
                    arguments: [
                        phone, code.digest, code.sentAt, code.expiresAt, code.failedAttempts, code.holder,
                        code.lastWrongDigest, code.send?.reference.hex,
                    ])
            case .deleteCode(let phone):
                try db.cachedStatement(sql: "DELETE FROM verifications WHERE phone = ?").execute(arguments: [phone])
            case .makePending(let session, let phone, let at, let until):
                try db.cachedStatement(
                    sql: """
                        INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                        VALUES (?, ?, NULL, ?, ?, ?, ?)
                        ON CONFLICT(key) DO UPDATE SET
                            pending_phone = excluded.pending_phone, user_id = NULL,
                            last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at,
                            absolute_expires_at = excluded.absolute_expires_at
                        """
                ).execute(arguments: [session, phone, at, at, until, until])
            case .countWrongTry(let phone, let digest):
                try db.cachedStatement(
                    sql:
                        "UPDATE verifications SET failed_attempts = failed_attempts + 1, last_wrong_digest = ? WHERE phone = ?"
                ).execute(arguments: [digest, phone])
            case .recordFailure(let phone, let client, let at):
                try db.cachedStatement(sql: "INSERT INTO failed_checks (phone, client, failed_at) VALUES (?, ?, ?)")
                    .execute(arguments: [phone, client, at])
            case .signIn(
                let phone, let session, let at, let expiresAt, let absoluteExpiresAt, let userAgent, let api, let method
            ):
                let user = try Int64.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            INSERT INTO users (phone, created_at, last_sign_in_at) VALUES (?, ?, ?)
                            ON CONFLICT(phone) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at
                            RETURNING id
                            """),
                    arguments: [phone, at, at])
                try db.cachedStatement(
                    sql: """
                        INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at,
                                              absolute_expires_at, user_agent, api, method)
                        VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(
                    arguments: [
                        session, user, at, at, expiresAt, absoluteExpiresAt, userAgent.map { String($0.prefix(512)) },
                        api, method.rawValue,
                    ])
                signedInUser = user
            case .rememberDevice(let key, let phone, let at, let until, let userAgent, let session):
                try db.cachedStatement(
                    sql: """
                        INSERT INTO devices (key, user_id, created_at, last_used_at, expires_at, user_agent, session_key)
                        SELECT ?, id, ?, ?, ?, ?, ? FROM users WHERE phone = ?
                        """
                ).execute(arguments: [key, at, at, until, userAgent.map { String($0.prefix(512)) }, session, phone])
            case .rotateDevice(let old, let new, let at, let session):
                try db.cachedStatement(
                    sql: "UPDATE devices SET key = ?, last_used_at = ?, session_key = ? WHERE key = ?"
                ).execute(arguments: [new, at, session, old])
            case .forgetDevice(let key):
                try db.cachedStatement(sql: "DELETE FROM devices WHERE key = ?").execute(arguments: [key])
            case .touchSession(let key, let at, let expiresAt):
                try db.cachedStatement(
                    sql: "UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE key = ? AND user_id IS NOT NULL"
                ).execute(arguments: [at, expiresAt, key])
            case .recordSignInStart(let client, let at):
                try db.cachedStatement(sql: "INSERT INTO sign_in_starts (client, started_at) VALUES (?, ?)").execute(
                    arguments: [client, at])
            case .storePasskeyChallenge, .deletePasskeyChallenge, .givePasskeyHandle, .addPasskey, .usePasskey,
                .flagPasskey, .renamePasskey, .removePasskey, .dismissPasskeyOffer:
                try applyPasskeyChange(db, change)
            }
        }
        return signedInUser
    }
}
