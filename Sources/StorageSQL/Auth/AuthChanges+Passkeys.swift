import AuthCore
import EventsCore
import Foundation

/// The statements of the passkeys' changes (``AuthChanges``).
extension AuthChanges {
    static let upsertPasskeyChallenge = SQL(
        """
        INSERT INTO passkey_challenges (key, purpose, challenge, user_id, client, created_at, expires_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (key) DO UPDATE SET
            purpose = excluded.purpose, challenge = excluded.challenge, user_id = excluded.user_id,
            client = excluded.client, created_at = excluded.created_at, expires_at = excluded.expires_at
        """)
    static let deletePasskeyChallenge = SQL("DELETE FROM passkey_challenges WHERE key = $1")
    static let givePasskeyHandle = SQL("UPDATE users SET passkey_handle = coalesce(passkey_handle, $1) WHERE id = $2")
    static let insertPasskey = SQL(
        """
        INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, aaguid, name, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        """)
    static let usePasskey = SQL("UPDATE passkeys SET sign_count = $1, last_used_at = $2 WHERE id = $3")
    static let flagPasskey = SQL("UPDATE passkeys SET flagged_at = coalesce(flagged_at, $1) WHERE id = $2")
    static let renamePasskey = SQL("UPDATE passkeys SET name = $1 WHERE id = $2 AND user_id = $3")
    static let removePasskey = SQL("DELETE FROM passkeys WHERE id = $1 AND user_id = $2")
    static let dismissPasskeyOffer = SQL(
        "UPDATE users SET passkey_offer_dismissed_at = coalesce(passkey_offer_dismissed_at, $1) WHERE id = $2")
}
