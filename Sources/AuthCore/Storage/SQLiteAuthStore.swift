import Foundation
import GRDB

/// ``AuthStore`` on SQLite through GRDB.
///
/// Every method that checks and then changes runs inside one `write` transaction; SQLite runs
/// write transactions one at a time, so limits and attempt counts hold under any concurrency.
public struct SQLiteAuthStore: AuthStore {
    private let database: AuthDatabase
    private let policy: StoragePolicy

    public init(database: AuthDatabase, policy: StoragePolicy) {
        self.database = database
        self.policy = policy
    }

    public func issueCode(_ request: IssueRequest) async throws -> IssueOutcome {
        let policy = self.policy
        return try await database.pool.write { db in
            let now = request.now.timeIntervalSince1970
            let phone = request.phone.e164
            let existing = try Self.liveSessionKey(db, request.existingSession, now: now)
            let sessionKey = existing ?? request.newSession

            let outcome: IssueOutcome
            let pendingUntil: Double
            if let row = try Row.fetchOne(
                try db.cachedStatement(sql: "SELECT sent_at, expires_at FROM verifications WHERE phone = ?"),
                arguments: [phone]),
                let expiresAt: Double = row["expires_at"],
                let cooldownEnd = policy.cooldownEnd(sentAt: row["sent_at"], expiresAt: expiresAt, now: now)
            {
                outcome = IssueOutcome(
                    cooldownUntil: Date(timeIntervalSince1970: cooldownEnd),
                    codeExpiresAt: Date(timeIntervalSince1970: expiresAt), keptExistingSession: existing != nil)
                guard request.attachSessionDuringCooldown else { return outcome }
                pendingUntil = expiresAt + policy.pendingSessionGrace
            } else {
                if let limited = try Self.sendLimit(db, phone: phone, client: request.client, now: now, policy: policy)
                {
                    return IssueOutcome(
                        cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: existing != nil,
                        limited: limited)
                }
                try db.cachedStatement(sql: "INSERT INTO code_sends (phone, client, sent_at) VALUES (?, ?, ?)").execute(
                    arguments: [phone, request.client, now])
                let expiresAt = now + policy.codeLifetime
                try db.cachedStatement(
                    sql: """
                        INSERT INTO verifications (phone, code_digest, sent_at, expires_at, failed_attempts)
                        VALUES (?, ?, ?, ?, 0)
                        ON CONFLICT(phone) DO UPDATE SET
                            code_digest = excluded.code_digest, sent_at = excluded.sent_at,
                            expires_at = excluded.expires_at, failed_attempts = 0
                        """
                ).execute(arguments: [phone, request.codeDigest, now, expiresAt])
                outcome = IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: Date(timeIntervalSince1970: expiresAt),
                    keptExistingSession: existing != nil)
                pendingUntil = expiresAt + policy.pendingSessionGrace
            }
            // A pending sign-in lives as long as its code plus a short grace (in which it can
            // only be told the code expired and ask for a new one). Any signed-in state this
            // browser had is replaced: it is now signing in (again) with this phone.
            guard let sessionKey else { return outcome }
            try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                    VALUES (?, ?, NULL, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET
                        pending_phone = excluded.pending_phone, user_id = NULL,
                        last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at,
                        absolute_expires_at = excluded.absolute_expires_at
                    """
            ).execute(arguments: [sessionKey, phone, now, now, pendingUntil, pendingUntil])
            return outcome
        }
    }

    public func withdrawCode(phone: PhoneNumber, codeDigest: Data, pendingSession: Data?) async throws {
        try await database.pool.write { db in
            if let pendingSession {
                try db.cachedStatement(
                    sql: "DELETE FROM sessions WHERE key = ? AND pending_phone = ? AND user_id IS NULL"
                ).execute(arguments: [pendingSession, phone.e164])
            }
            try db.cachedStatement(sql: "DELETE FROM verifications WHERE phone = ? AND code_digest = ?").execute(
                arguments: [phone.e164, codeDigest])
            guard db.changesCount > 0 else { return }
            // The text never went out: it does not count against the sending limits either.
            try db.cachedStatement(
                sql: "DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends WHERE phone = ?)"
            ).execute(arguments: [phone.e164])
        }
    }

    /// Which sending limit, if any, refuses another code now, and until when.
    private static func sendLimit(_ db: Database, phone: String, client: String?, now: Double, policy: StoragePolicy)
        throws -> (limit: SendLimit, until: Date)?
    {
        if let until = try windowFull(
            db,
            sql:
                "SELECT sent_at FROM code_sends WHERE phone = ? AND sent_at > ? ORDER BY sent_at DESC LIMIT 1 OFFSET ?",
            key: phone, max: policy.maxCodesPerPhone, window: policy.codesPerPhoneWindow, now: now)
        {
            return (.phone, until)
        }
        if let client,
            let until = try windowFull(
                db,
                sql:
                    "SELECT sent_at FROM code_sends WHERE client = ? AND sent_at > ? ORDER BY sent_at DESC LIMIT 1 OFFSET ?",
                key: client, max: policy.maxCodesPerClient, window: policy.codesPerClientWindow, now: now)
        {
            return (.client, until)
        }
        return nil
    }

    /// When `max` events already happened in the sliding window: the time the oldest of them
    /// leaves it (and one more is allowed). `nil` while there is room.
    private static func windowFull(
        _ db: Database, sql: String, key: String, max: Int, window: TimeInterval, now: Double
    ) throws -> Date? {
        // The max-th newest event in the window, found through the (key, time) index: one row
        // read however many events there are.
        guard
            let oldestCounted = try Double.fetchOne(
                try db.cachedStatement(sql: sql), arguments: [key, now - window, max - 1])
        else { return nil }
        return Date(timeIntervalSince1970: oldestCounted + window)
    }

    public func checkCode(_ request: CheckRequest) async throws -> CheckOutcome {
        let policy = self.policy
        return try await database.pool.write { db -> CheckOutcome in
            let now = request.now.timeIntervalSince1970
            let phone = request.phone.e164
            if let session = request.session {
                guard
                    try Bool.fetchOne(
                        try db.cachedStatement(
                            sql: "SELECT 1 FROM sessions WHERE key = ? AND pending_phone = ? AND expires_at > ?"),
                        arguments: [session, phone, now]) == true
                else { return .noPendingSession }
            }

            guard
                let row = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: "SELECT code_digest, expires_at, failed_attempts FROM verifications WHERE phone = ?"),
                    arguments: [phone])
            else { return .noCode }
            let lockedUntil = try Self.windowFull(
                db,
                sql:
                    "SELECT failed_at FROM failed_checks WHERE phone = ? AND failed_at > ? ORDER BY failed_at DESC LIMIT 1 OFFSET ?",
                key: phone, max: policy.maxFailuresPerPhone, window: policy.failuresPerPhoneWindow, now: now)
            switch policy.judge(
                candidate: request.candidateDigest, stored: row["code_digest"], expiresAt: row["expires_at"],
                failedAttempts: row["failed_attempts"], lockedUntil: lockedUntil, now: now)
            {
            case .refused(let outcome):
                return outcome
            case .wrong(let remaining):
                try db.cachedStatement(
                    sql: "UPDATE verifications SET failed_attempts = failed_attempts + 1 WHERE phone = ?"
                ).execute(arguments: [phone])
                try db.cachedStatement(sql: "INSERT INTO failed_checks (phone, failed_at) VALUES (?, ?)").execute(
                    arguments: [phone, now])
                return .incorrect(remainingAttempts: remaining)
            case .right:
                break
            }

            // Right code: single use, then a fresh session id for the signed-in state.
            try db.cachedStatement(sql: "DELETE FROM verifications WHERE phone = ?").execute(arguments: [phone])
            if let session = request.session {
                try db.cachedStatement(sql: "DELETE FROM sessions WHERE key = ?").execute(arguments: [session])
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO users (phone, created_at, last_sign_in_at) VALUES (?, ?, ?)
                    ON CONFLICT(phone) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at
                    """
            ).execute(arguments: [phone, now, now])
            let userID = try Int64.fetchOne(
                try db.cachedStatement(sql: "SELECT id FROM users WHERE phone = ?"), arguments: [phone])!
            let absolute = now + policy.sessionLifetime
            try db.cachedStatement(
                sql: """
                    INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                    VALUES (?, NULL, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                request.signedInSession, userID, now, now, min(absolute, now + policy.sessionIdleTimeout), absolute,
            ])
            return .signedIn(User(id: userID, phone: request.phone))
        }
    }

    public func session(_ key: Data, now: Date) async throws -> SessionState? {
        try await session(key, now: now, alsoReading: SessionRead<Void>(sqlite: { _, _ in }, separately: { _ in }))?
            .state
    }

    public func session<Value: Sendable>(_ key: Data, now: Date, alsoReading read: SessionRead<Value>) async throws
        -> (state: SessionState, value: Value?)?
    {
        let nowSeconds = now.timeIntervalSince1970
        let found = try await database.pool.readOnWorkerThread {
            db -> (state: SessionState, lastSeen: Double, value: Value?)? in
            guard
                let row = try Row.fetchOne(
                    try db.cachedStatement(
                        sql: """
                            SELECT s.pending_phone, s.last_seen_at, u.id AS user_id, u.phone AS user_phone
                            FROM sessions s LEFT JOIN users u ON u.id = s.user_id
                            WHERE s.key = ? AND s.expires_at > ?
                            """),
                    arguments: [key, nowSeconds])
            else { return nil }
            let lastSeen: Double = row["last_seen_at"]
            if let pending: String = row["pending_phone"], let phone = try? PhoneNumber(parsing: pending) {
                return (.pending(phone), lastSeen, nil)
            }
            if let id: Int64 = row["user_id"], let text: String = row["user_phone"],
                let phone = try? PhoneNumber(parsing: text)
            {
                let user = User(id: id, phone: phone)
                // The page's own read, in this same transaction: one hand-off for both.
                return (.signedIn(user), lastSeen, try read.sqlite?(db, user))
            }
            return nil
        }
        guard let found else { return nil }
        var value = found.value
        if case .signedIn(let user) = found.state {
            if nowSeconds - found.lastSeen >= StoragePolicy.sessionTouchInterval {
                let idle = policy.sessionIdleTimeout
                try await database.pool.write { db in
                    try db.cachedStatement(
                        sql: """
                            UPDATE sessions SET last_seen_at = ?, expires_at = min(absolute_expires_at, ?)
                            WHERE key = ? AND user_id IS NOT NULL
                            """
                    ).execute(arguments: [nowSeconds, nowSeconds + idle, key])
                }
            }
            if read.sqlite == nil { value = try await read.separately(user) }
        }
        return (found.state, value)
    }

    public func resendWait(phone: PhoneNumber, now: Date) async throws -> TimeInterval {
        let cooldown = policy.resendCooldown
        let sentAt = try await database.pool.read { db in
            try Double.fetchOne(
                try db.cachedStatement(sql: "SELECT sent_at FROM verifications WHERE phone = ?"),
                arguments: [phone.e164])
        }
        guard let sentAt else { return 0 }
        return max(0, sentAt + cooldown - now.timeIntervalSince1970)
    }

    public func deleteSession(_ key: Data) async throws {
        try await database.pool.write { db in
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE key = ?").execute(arguments: [key])
        }
    }

    public func purgeExpired(now: Date) async throws -> Int {
        let policy = self.policy
        return try await database.pool.write { db in
            let seconds = now.timeIntervalSince1970
            try db.cachedStatement(sql: "DELETE FROM sessions WHERE expires_at <= ?").execute(arguments: [seconds])
            var count = db.changesCount
            // Keep expired codes a day, so "Your code expired" (not "no code") is what people see.
            try db.cachedStatement(sql: "DELETE FROM verifications WHERE expires_at <= ?").execute(arguments: [
                seconds - 86_400
            ])
            count += db.changesCount
            let sendWindow = max(policy.codesPerPhoneWindow, policy.codesPerClientWindow)
            try db.cachedStatement(sql: "DELETE FROM code_sends WHERE sent_at <= ?").execute(arguments: [
                seconds - sendWindow
            ])
            count += db.changesCount
            try db.cachedStatement(sql: "DELETE FROM failed_checks WHERE failed_at <= ?").execute(arguments: [
                seconds - policy.failuresPerPhoneWindow
            ])
            count += db.changesCount
            return count
        }
    }

    /// The existing session's key if it is still live; an expired one is deleted so it is never
    /// revived (a new key is issued instead).
    private static func liveSessionKey(_ db: Database, _ key: Data?, now: Double) throws -> Data? {
        guard let key else { return nil }
        if try Bool.fetchOne(
            try db.cachedStatement(sql: "SELECT 1 FROM sessions WHERE key = ? AND expires_at > ?"),
            arguments: [key, now])
            == true
        {
            return key
        }
        try db.cachedStatement(sql: "DELETE FROM sessions WHERE key = ?").execute(arguments: [key])
        return nil
    }
}
