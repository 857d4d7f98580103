import AuthCore
import Foundation
import Logging
import PostgresNIO

/// ``AuthStore`` on PostgreSQL, shared by every app instance.
///
/// Each method that checks and then changes runs in one transaction that first takes a lock
/// on the phone number (and, when sending, on the client address): `pg_advisory_xact_lock`,
/// released at commit. So a code's attempt count, the resend cooldown and the sending limits
/// hold however many requests run at once on however many instances; requests for different
/// numbers never wait for each other.
public struct PostgresAuthStore: AuthStore {
    private let database: PostgresBackend
    private let policy: StoragePolicy

    public init(database: PostgresBackend, policy: StoragePolicy) {
        self.database = database
        self.policy = policy
    }

    private var logger: Logger { database.logger }

    public func issueCode(_ request: IssueRequest) async throws -> IssueOutcome {
        let policy = self.policy
        let logger = self.logger
        return try await database.transaction { connection in
            let now = request.now.timeIntervalSince1970
            let phone = request.phone.e164
            try await connection.lock("phone", phone, logger)
            if let client = request.client { try await connection.lock("client", client, logger) }
            let existing = try await Self.liveSessionKey(connection, request.existingSession, now: now, logger)
            let sessionKey = existing ?? request.newSession

            let outcome: IssueOutcome
            let pendingUntil: Double
            if let (sentAt, expiresAt) = try await connection.rows(
                "SELECT sent_at, expires_at FROM verifications WHERE phone = \(phone)", logger
            ).first?.decode((Double, Double).self),
                let cooldownEnd = policy.cooldownEnd(sentAt: sentAt, expiresAt: expiresAt, now: now)
            {
                outcome = IssueOutcome(
                    cooldownUntil: Date(timeIntervalSince1970: cooldownEnd),
                    codeExpiresAt: Date(timeIntervalSince1970: expiresAt), keptExistingSession: existing != nil)
                guard request.attachSessionDuringCooldown else { return outcome }
                pendingUntil = expiresAt + policy.pendingSessionGrace
            } else {
                if let limited = try await Self.sendLimit(
                    connection, phone: phone, client: request.client, now: now, policy: policy, logger)
                {
                    return IssueOutcome(
                        cooldownUntil: nil, codeExpiresAt: request.now, keptExistingSession: existing != nil,
                        limited: limited)
                }
                try await connection.rows(
                    "INSERT INTO code_sends (phone, client, sent_at) VALUES (\(phone), \(request.client), \(now))",
                    logger)
                let expiresAt = now + policy.codeLifetime
                try await connection.rows(
                    """
                    INSERT INTO verifications (phone, code_digest, sent_at, expires_at, failed_attempts)
                    VALUES (\(phone), \(request.codeDigest), \(now), \(expiresAt), 0)
                    ON CONFLICT (phone) DO UPDATE SET
                        code_digest = excluded.code_digest, sent_at = excluded.sent_at,
                        expires_at = excluded.expires_at, failed_attempts = 0
                    """, logger)
                outcome = IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: Date(timeIntervalSince1970: expiresAt),
                    keptExistingSession: existing != nil)
                pendingUntil = expiresAt + policy.pendingSessionGrace
            }
            // As in SQLiteAuthStore: the session is now signing in (again) with this phone.
            guard let sessionKey else { return outcome }
            try await connection.rows(
                """
                INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                VALUES (\(sessionKey), \(phone), NULL, \(now), \(now), \(pendingUntil), \(pendingUntil))
                ON CONFLICT (key) DO UPDATE SET
                    pending_phone = excluded.pending_phone, user_id = NULL,
                    last_seen_at = excluded.last_seen_at, expires_at = excluded.expires_at,
                    absolute_expires_at = excluded.absolute_expires_at
                """, logger)
            return outcome
        }
    }

    public func withdrawCode(phone: PhoneNumber, codeDigest: Data, pendingSession: Data?) async throws {
        let logger = self.logger
        try await database.transaction { connection in
            try await connection.lock("phone", phone.e164, logger)
            if let pendingSession {
                try await connection.rows(
                    """
                    DELETE FROM sessions WHERE key = \(pendingSession) AND pending_phone = \(phone.e164) AND user_id IS NULL
                    """, logger)
            }
            let removed = try await connection.rows(
                "DELETE FROM verifications WHERE phone = \(phone.e164) AND code_digest = \(codeDigest) RETURNING 1",
                logger)
            guard !removed.isEmpty else { return }
            // The text never went out: it does not count against the sending limits either.
            try await connection.rows(
                "DELETE FROM code_sends WHERE id = (SELECT max(id) FROM code_sends WHERE phone = \(phone.e164))", logger
            )
        }
    }

    /// Which sending limit, if any, refuses another code now, and until when.
    private static func sendLimit(
        _ connection: PostgresConnection, phone: String, client: String?, now: Double, policy: StoragePolicy,
        _ logger: Logger
    ) async throws -> (limit: SendLimit, until: Date)? {
        let phoneWindow = now - policy.codesPerPhoneWindow
        if let oldest = try await connection.rows(
            """
            SELECT sent_at FROM code_sends WHERE phone = \(phone) AND sent_at > \(phoneWindow)
            ORDER BY sent_at DESC LIMIT 1 OFFSET \(policy.maxCodesPerPhone - 1)
            """, logger
        ).first?.decode(Double.self) {
            return (.phone, Date(timeIntervalSince1970: oldest + policy.codesPerPhoneWindow))
        }
        let clientWindow = now - policy.codesPerClientWindow
        if let client,
            let oldest = try await connection.rows(
                """
                SELECT sent_at FROM code_sends WHERE client = \(client) AND sent_at > \(clientWindow)
                ORDER BY sent_at DESC LIMIT 1 OFFSET \(policy.maxCodesPerClient - 1)
                """, logger
            ).first?.decode(Double.self)
        {
            return (.client, Date(timeIntervalSince1970: oldest + policy.codesPerClientWindow))
        }
        return nil
    }

    public func checkCode(_ request: CheckRequest) async throws -> CheckOutcome {
        let policy = self.policy
        let logger = self.logger
        return try await database.transaction { connection -> CheckOutcome in
            let now = request.now.timeIntervalSince1970
            let phone = request.phone.e164
            try await connection.lock("phone", phone, logger)
            if let session = request.session {
                guard
                    try await !connection.rows(
                        """
                        SELECT 1 FROM sessions WHERE key = \(session) AND pending_phone = \(phone) AND expires_at > \(now)
                        """, logger
                    ).isEmpty
                else { return .noPendingSession }
            }
            guard
                let (stored, expiresAt, failed) = try await connection.rows(
                    "SELECT code_digest, expires_at, failed_attempts FROM verifications WHERE phone = \(phone)", logger
                ).first?.decode((Data, Double, Int).self)
            else { return .noCode }
            let failureWindow = now - policy.failuresPerPhoneWindow
            let oldestFailure = try await connection.rows(
                """
                SELECT failed_at FROM failed_checks WHERE phone = \(phone) AND failed_at > \(failureWindow)
                ORDER BY failed_at DESC LIMIT 1 OFFSET \(policy.maxFailuresPerPhone - 1)
                """, logger
            ).first?.decode(Double.self)
            let lockedUntil = oldestFailure.map { Date(timeIntervalSince1970: $0 + policy.failuresPerPhoneWindow) }
            switch policy.judge(
                candidate: request.candidateDigest, stored: stored, expiresAt: expiresAt, failedAttempts: failed,
                lockedUntil: lockedUntil, now: now)
            {
            case .refused(let outcome):
                return outcome
            case .wrong(let remaining):
                try await connection.rows(
                    "UPDATE verifications SET failed_attempts = failed_attempts + 1 WHERE phone = \(phone)", logger)
                try await connection.rows(
                    "INSERT INTO failed_checks (phone, failed_at) VALUES (\(phone), \(now))", logger)
                return .incorrect(remainingAttempts: remaining)
            case .right:
                break
            }

            // Right code: single use, then a fresh session id for the signed-in state.
            try await connection.rows("DELETE FROM verifications WHERE phone = \(phone)", logger)
            if let session = request.session {
                try await connection.rows("DELETE FROM sessions WHERE key = \(session)", logger)
            }
            let userID = try await connection.rows(
                """
                INSERT INTO users (phone, created_at, last_sign_in_at) VALUES (\(phone), \(now), \(now))
                ON CONFLICT (phone) DO UPDATE SET last_sign_in_at = excluded.last_sign_in_at
                RETURNING id
                """, logger
            )[0].decode(Int64.self)
            let absolute = now + policy.sessionLifetime
            let expires = min(absolute, now + policy.sessionIdleTimeout)
            try await connection.rows(
                """
                INSERT INTO sessions (key, pending_phone, user_id, created_at, last_seen_at, expires_at, absolute_expires_at)
                VALUES (\(request.signedInSession), NULL, \(userID), \(now), \(now), \(expires), \(absolute))
                """, logger)
            return .signedIn(User(id: userID, phone: request.phone))
        }
    }

    public func session(_ key: Data, now: Date) async throws -> SessionState? {
        let nowSeconds = now.timeIntervalSince1970
        guard
            let (pending, lastSeen, userID, userPhone) = try await database.rows(
                """
                SELECT s.pending_phone, s.last_seen_at, u.id, u.phone
                FROM sessions s LEFT JOIN users u ON u.id = s.user_id
                WHERE s.key = \(key) AND s.expires_at > \(nowSeconds)
                """
            ).first?.decode((String?, Double, Int64?, String?).self)
        else { return nil }
        if let pending, let phone = try? PhoneNumber(parsing: pending) { return .pending(phone) }
        guard let userID, let userPhone, let phone = try? PhoneNumber(parsing: userPhone) else { return nil }
        // As in SQLiteAuthStore: refresh the idle timer at most once a minute.
        if nowSeconds - lastSeen >= StoragePolicy.sessionTouchInterval {
            let idleUntil = nowSeconds + policy.sessionIdleTimeout
            try await database.rows(
                """
                UPDATE sessions SET last_seen_at = \(nowSeconds), expires_at = least(absolute_expires_at, \(idleUntil))
                WHERE key = \(key) AND user_id IS NOT NULL
                """)
        }
        return .signedIn(User(id: userID, phone: phone))
    }

    public func resendWait(phone: PhoneNumber, now: Date) async throws -> TimeInterval {
        guard
            let sentAt = try await database.rows("SELECT sent_at FROM verifications WHERE phone = \(phone.e164)").first?
                .decode(Double.self)
        else { return 0 }
        return max(0, sentAt + policy.resendCooldown - now.timeIntervalSince1970)
    }

    public func deleteSession(_ key: Data) async throws {
        try await database.rows("DELETE FROM sessions WHERE key = \(key)")
    }

    public func purgeExpired(now: Date) async throws -> Int {
        let seconds = now.timeIntervalSince1970
        // Expired codes are kept a day, so "Your code expired" (not "no code") is what people see.
        let codesBefore = seconds - 86_400
        let sendsBefore = seconds - max(policy.codesPerPhoneWindow, policy.codesPerClientWindow)
        let failuresBefore = seconds - policy.failuresPerPhoneWindow
        let counts = try await database.rows(
            """
            WITH s AS (DELETE FROM sessions WHERE expires_at <= \(seconds) RETURNING 1),
                 v AS (DELETE FROM verifications WHERE expires_at <= \(codesBefore) RETURNING 1),
                 c AS (DELETE FROM code_sends WHERE sent_at <= \(sendsBefore) RETURNING 1),
                 f AS (DELETE FROM failed_checks WHERE failed_at <= \(failuresBefore) RETURNING 1)
            SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM v) + (SELECT count(*) FROM c)
                 + (SELECT count(*) FROM f)
            """)
        return try counts.first?.decode(Int.self) ?? 0
    }

    /// The existing session's key if it is still live; an expired one is deleted so it is never
    /// revived (a new key is issued instead).
    private static func liveSessionKey(_ connection: PostgresConnection, _ key: Data?, now: Double, _ logger: Logger)
        async throws -> Data?
    {
        guard let key else { return nil }
        if try await !connection.rows("SELECT 1 FROM sessions WHERE key = \(key) AND expires_at > \(now)", logger)
            .isEmpty
        {
            return key
        }
        try await connection.rows("DELETE FROM sessions WHERE key = \(key)", logger)
        return nil
    }
}
