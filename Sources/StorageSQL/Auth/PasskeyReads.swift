import AuthCore
import Foundation

/// Passkeys' reads: their challenges, the passkeys, and each person's handle and answer to the
/// offer.
enum PasskeyReads {
    static let challengeByKey = SQL(
        "SELECT purpose, challenge, user_id, client, created_at, expires_at FROM passkey_challenges WHERE key = $1")

    static func challenge(_ key: Data) -> Step<PasskeyChallenge?> {
        .rows(Statement(challengeByKey, key)) { rows in
            .done(
                try rows.first.map { row in
                    guard let purpose = PasskeyPurpose(rawValue: try row.get("purpose")) else {
                        throw StoredDataCorrupt("a passkey challenge of an unknown purpose")
                    }
                    return PasskeyChallenge(
                        purpose: purpose, challenge: try row.get("challenge"), userID: try row.optional("user_id"),
                        client: try row.optional("client"), createdAt: try row.get("created_at"),
                        expiresAt: try row.get("expires_at"))
                })
        }
    }

    private static func passkeysWhere(_ condition: String) -> SQL {
        SQL(
            """
            SELECT p.id, p.credential_id, p.user_id, coalesce(u.phone, '') AS phone, u.passkey_handle, p.public_key,
                   p.sign_count,
                   p.name, p.created_at, p.last_used_at, p.flagged_at
            FROM passkeys p JOIN users u ON u.id = p.user_id
            WHERE \(condition) ORDER BY p.created_at DESC, p.id DESC
            """)
    }
    static let passkeyByCredential = passkeysWhere("p.credential_id = $1")
    static let passkeysOfUser = passkeysWhere("p.user_id = $1")

    /// The passkeys `statement` finds, newest first, with their person's phone and handle.
    static func passkeys(_ statement: Statement) -> Step<[PasskeyRecord]> {
        .rows(statement) { rows in
            .done(
                try rows.map { row in
                    guard let handle: Data = try row.optional("passkey_handle"),
                        let count = UInt32(exactly: try row.get("sign_count", as: Int64.self))
                    else {
                        throw StoredDataCorrupt("a passkey without its person's handle, or with a counter out of range")
                    }
                    return PasskeyRecord(
                        id: try row.get("id"), credentialID: try row.get("credential_id"), userID: try row.get("user_id"),
                        phone: try row.get("phone"), userHandle: handle, publicKey: try row.get("public_key"),
                        signCount: count, name: try row.get("name"), createdAt: try row.get("created_at"),
                        lastUsedAt: try row.optional("last_used_at"), flaggedAt: try row.optional("flagged_at"))
                })
        }
    }

    static func passkey(_ credentialID: Data) -> Step<PasskeyRecord?> {
        passkeys(Statement(passkeyByCredential, credentialID)).map(\.first)
    }

    static let userPasskeyState = SQL("SELECT passkey_handle, passkey_offer_dismissed_at FROM users WHERE id = $1")

    static func userPasskeys(_ user: Int64) -> Step<UserPasskeys> {
        .rows(Statement(userPasskeyState, user)) { rows in
            let handle: Data? = try rows.first?.optional("passkey_handle")
            let dismissed: Double? = try rows.first?.optional("passkey_offer_dismissed_at")
            return passkeys(Statement(passkeysOfUser, user)).map {
                UserPasskeys(handle: handle, offerDismissed: dismissed != nil, passkeys: $0)
            }
        }
    }
}
