import AuthCore
import Foundation
import GRDB

/// Passkeys on SQLite: their challenges, the passkeys, and each person's handle and answer to
/// the offer, read and written as ``SQLiteAuthStore`` does the rest.
extension SQLiteAuthStore {
    static func passkeyChallenge(_ db: Database, _ key: Data) throws -> PasskeyChallenge? {
        try Row.fetchOne(
            try db.cachedStatement(
                sql:
                    "SELECT purpose, challenge, user_id, client, created_at, expires_at FROM passkey_challenges WHERE key = ?"
            ),
            arguments: [key]
        ).map { row in
            guard let purpose = PasskeyPurpose(rawValue: row[0]) else {
                throw StoredDataCorrupt("a passkey challenge of an unknown purpose")
            }
            return PasskeyChallenge(
                purpose: purpose, challenge: row[1], userID: row[2], client: row[3], createdAt: row[4],
                expiresAt: row[5])
        }
    }

    /// The passkeys the condition on `p` finds, newest first, with their person's phone and handle.
    static func passkeys(_ db: Database, where condition: String, _ value: some DatabaseValueConvertible)
        throws -> [PasskeyRecord]
    {
        try Row.fetchAll(
            try db.cachedStatement(
                sql: """
                    SELECT p.id, p.credential_id, p.user_id, u.phone, u.passkey_handle, p.public_key, p.sign_count,
                           p.name, p.created_at, p.last_used_at, p.flagged_at
                    FROM passkeys p JOIN users u ON u.id = p.user_id
                    WHERE \(condition) ORDER BY p.created_at DESC, p.id DESC
                    """),
            arguments: [value]
        ).map { row in
            guard let handle: Data = row[4], let count = UInt32(exactly: row[6] as Int64) else {
                throw StoredDataCorrupt("a passkey without its person's handle, or with a counter out of range")
            }
            return PasskeyRecord(
                id: row[0], credentialID: row[1], userID: row[2], phone: row[3], userHandle: handle, publicKey: row[5],
                signCount: count, name: row[7], createdAt: row[8], lastUsedAt: row[9], flaggedAt: row[10])
        }
    }

    static func userPasskeys(_ db: Database, _ user: Int64) throws -> UserPasskeys {
        let row = try Row.fetchOne(
            try db.cachedStatement(sql: "SELECT passkey_handle, passkey_offer_dismissed_at FROM users WHERE id = ?"),
            arguments: [user])
        return UserPasskeys(
            handle: row?[0], offerDismissed: (row?[1] as Double?) != nil,
            passkeys: try passkeys(db, where: "p.user_id = ?", user))
    }

    /// Writes one of the passkey changes (any other change is the main ``apply(_:_:)``'s).
    static func applyPasskeyChange(_ db: Database, _ change: AuthChange) throws {
        switch change {
        case .storePasskeyChallenge(let key, let challenge):
            try db.cachedStatement(
                sql: """
                    INSERT INTO passkey_challenges (key, purpose, challenge, user_id, client, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET
                        purpose = excluded.purpose, challenge = excluded.challenge, user_id = excluded.user_id,
                        client = excluded.client, created_at = excluded.created_at, expires_at = excluded.expires_at
                    """
            ).execute(
                arguments: [
                    key, challenge.purpose.rawValue, challenge.challenge, challenge.userID, challenge.client,
                    challenge.createdAt, challenge.expiresAt,
                ])
        case .deletePasskeyChallenge(let key):
            try db.cachedStatement(sql: "DELETE FROM passkey_challenges WHERE key = ?").execute(arguments: [key])
        case .givePasskeyHandle(let user, let handle):
            try db.cachedStatement(
                sql: "UPDATE users SET passkey_handle = coalesce(passkey_handle, ?) WHERE id = ?"
            ).execute(arguments: [handle, user])
        case .addPasskey(let passkey):
            try db.cachedStatement(
                sql: """
                    INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, aaguid, name, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(
                arguments: [
                    passkey.credentialID, passkey.userID, passkey.publicKey, Int64(passkey.signCount),
                    passkey.aaguid, passkey.name, passkey.createdAt,
                ])
        case .usePasskey(let id, let signCount, let at):
            try db.cachedStatement(sql: "UPDATE passkeys SET sign_count = ?, last_used_at = ? WHERE id = ?")
                .execute(arguments: [Int64(signCount), at, id])
        case .flagPasskey(let id, let at):
            try db.cachedStatement(sql: "UPDATE passkeys SET flagged_at = coalesce(flagged_at, ?) WHERE id = ?")
                .execute(arguments: [at, id])
        case .renamePasskey(let id, let user, let name):
            try db.cachedStatement(sql: "UPDATE passkeys SET name = ? WHERE id = ? AND user_id = ?")
                .execute(arguments: [name, id, user])
        case .removePasskey(let id, let user):
            try db.cachedStatement(sql: "DELETE FROM passkeys WHERE id = ? AND user_id = ?")
                .execute(arguments: [id, user])
        case .dismissPasskeyOffer(let user, let at):
            try db.cachedStatement(
                sql:
                    "UPDATE users SET passkey_offer_dismissed_at = coalesce(passkey_offer_dismissed_at, ?) WHERE id = ?"
            ).execute(arguments: [at, user])
        default:
            break
        }
    }
}
