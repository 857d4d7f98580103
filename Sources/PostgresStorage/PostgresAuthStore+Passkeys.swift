import AuthCore
import Foundation
import Logging
import PostgresNIO

/// Passkeys on PostgreSQL: their challenges, the passkeys, and each person's handle and answer
/// to the offer, read and written as ``PostgresAuthStore`` does the rest.
extension PostgresAuthStore {
    static func passkeyChallenge(_ connection: PostgresConnection, _ key: Data, _ logger: Logger) async throws
        -> PasskeyChallenge?
    {
        try await connection.rows(
            """
            SELECT purpose, challenge, user_id, client, created_at, expires_at FROM passkey_challenges
            WHERE key = \(key)
            """, logger
        ).first.map { row in
            let (purpose, challenge, user, client, created, expires) = try row.decode(
                (String, Data, Int64?, String?, Double, Double).self)
            guard let purpose = PasskeyPurpose(rawValue: purpose) else {
                throw StoredDataCorrupt("a passkey challenge of an unknown purpose")
            }
            return PasskeyChallenge(
                purpose: purpose, challenge: challenge, userID: user, client: client, createdAt: created,
                expiresAt: expires)
        }
    }

    /// The passkeys the condition on `p` finds, newest first, with their person's phone and
    /// handle: the condition's own binds are the query's only ones.
    static func passkeys(_ connection: PostgresConnection, _ condition: PostgresQuery, _ logger: Logger)
        async throws -> [PasskeyRecord]
    {
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT p.id, p.credential_id, p.user_id, u.phone, u.passkey_handle, p.public_key, p.sign_count,
                       p.name, p.created_at, p.last_used_at, p.flagged_at
                FROM passkeys p JOIN users u ON u.id = p.user_id
                WHERE \(condition.sql) ORDER BY p.created_at DESC, p.id DESC
                """, binds: condition.binds)
        return try await connection.rows(query, logger).map { row in
            let (id, credential, user, phone, handle, key, count, name, created, used, flagged) = try row.decode(
                (Int64, Data, Int64, String, Data?, Data, Int64, String, Double, Double?, Double?).self)
            guard let handle, let signCount = UInt32(exactly: count) else {
                throw StoredDataCorrupt("a passkey without its person's handle, or with a counter out of range")
            }
            return PasskeyRecord(
                id: id, credentialID: credential, userID: user, phone: phone, userHandle: handle, publicKey: key,
                signCount: signCount, name: name, createdAt: created, lastUsedAt: used, flaggedAt: flagged)
        }
    }

    static func userPasskeys(_ connection: PostgresConnection, _ user: Int64, _ logger: Logger) async throws
        -> UserPasskeys
    {
        let row = try await connection.rows(
            "SELECT passkey_handle, passkey_offer_dismissed_at FROM users WHERE id = \(user)", logger
        ).first
        let (handle, dismissed) = try row?.decode((Data?, Double?).self) ?? (nil, nil)
        return UserPasskeys(
            handle: handle, offerDismissed: dismissed != nil,
            passkeys: try await passkeys(connection, "p.user_id = \(user)", logger))
    }

    /// Writes one of the passkey changes (any other change is the main `apply`'s).
    static func applyPasskeyChange(_ connection: PostgresConnection, _ change: AuthChange, _ logger: Logger)
        async throws
    {
        switch change {
        case .storePasskeyChallenge(let key, let challenge):
            try await connection.rows(
                """
                INSERT INTO passkey_challenges (key, purpose, challenge, user_id, client, created_at, expires_at)
                VALUES (\(key), \(challenge.purpose.rawValue), \(challenge.challenge), \(challenge.userID),
                        \(challenge.client), \(challenge.createdAt), \(challenge.expiresAt))
                ON CONFLICT (key) DO UPDATE SET
                    purpose = excluded.purpose, challenge = excluded.challenge, user_id = excluded.user_id,
                    client = excluded.client, created_at = excluded.created_at, expires_at = excluded.expires_at
                """, logger)
        case .deletePasskeyChallenge(let key):
            try await connection.rows("DELETE FROM passkey_challenges WHERE key = \(key)", logger)
        case .givePasskeyHandle(let user, let handle):
            try await connection.rows(
                "UPDATE users SET passkey_handle = coalesce(passkey_handle, \(handle)) WHERE id = \(user)", logger)
        case .addPasskey(let passkey):
            try await connection.rows(
                """
                INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, aaguid, name, created_at)
                VALUES (\(passkey.credentialID), \(passkey.userID), \(passkey.publicKey),
                        \(Int64(passkey.signCount)), \(passkey.aaguid), \(passkey.name), \(passkey.createdAt))
                """, logger)
        case .usePasskey(let id, let signCount, let at):
            try await connection.rows(
                "UPDATE passkeys SET sign_count = \(Int64(signCount)), last_used_at = \(at) WHERE id = \(id)", logger)
        case .flagPasskey(let id, let at):
            try await connection.rows(
                "UPDATE passkeys SET flagged_at = coalesce(flagged_at, \(at)) WHERE id = \(id)", logger)
        case .renamePasskey(let id, let user, let name):
            try await connection.rows(
                "UPDATE passkeys SET name = \(name) WHERE id = \(id) AND user_id = \(user)", logger)
        case .removePasskey(let id, let user):
            try await connection.rows("DELETE FROM passkeys WHERE id = \(id) AND user_id = \(user)", logger)
        case .dismissPasskeyOffer(let user, let at):
            try await connection.rows(
                """
                UPDATE users SET passkey_offer_dismissed_at = coalesce(passkey_offer_dismissed_at, \(at))
                WHERE id = \(user)
                """, logger)
        default:
            break
        }
    }
}
