import Foundation

/// "Confirm it's you": whether a signed-in session holds a proof fresh enough for something
/// sensitive (removing a passkey, signing out everywhere else, and the account's pages).
///
/// A proof is a sign-in that showed the person holds the number or a passkey: a code by text
/// or call, or a passkey. A remembered browser is never one (it proves only that this browser
/// was trusted once), however recent. The proof's time is the session's own sign-in time: the
/// confirmation page makes a new session by a new proof and ends the old one, so a session is
/// never "refreshed" into looking proved.
public enum Confirmation {
    /// How long a proof counts (`--confirm-within`, 10 minutes by default).
    public static let defaultWithin: TimeInterval = 600

    /// Whether `record`, a live signed-in session, was proved within `within` of `now`. A sign-in
    /// time after now counts as no proof (the clock was set back), unless by less than
    /// ``SignInRules/clockSkew`` (another instance's clock a little ahead).
    public static func isFresh(_ record: SessionRecord, now: Date, within: TimeInterval) -> Bool {
        guard record.userID != nil, record.method != .rememberedDevice else { return false }
        let now = now.timeIntervalSince1970
        return SignInRules.hasHappened(record.createdAt, by: now) && now - record.createdAt <= within
    }

    /// Where to go after confirming: a path on this site (`/devices`, `/devices/passkeys/3/remove`)
    /// and nothing else, so `next=` can never send a person away (no scheme, no `//host`, no
    /// backslash, no control characters, at most 4,096 bytes: an app's sign-in request fits);
    /// anything else is `/home`.
    public static func safeNext(_ raw: String?) -> String {
        guard let raw, raw.utf8.count <= 4096, raw.hasPrefix("/"), !raw.hasPrefix("//"),
            !raw.contains("\\"), raw.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return "/home" }
        return raw
    }
}
