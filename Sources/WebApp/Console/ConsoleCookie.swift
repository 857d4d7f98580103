import AuthCore
import ConsoleCore
import Crypto
import Encodings
import Foundation
import HTTPLite

/// When the console last answered this session: it stays open for ``ConsoleCore/ConsoleAccess``'s
/// idle time after its last page, then asks for the passkey again. On `/admin` only, `HttpOnly`,
/// `SameSite=Strict`; `__Secure-` with `--https`.
///
/// The value is the time and a MAC over it and the session's storage key, under a key derived
/// from the server secret: it cannot be moved to another session, nor its time changed, and
/// every instance reads it the same (no state in memory).
struct ConsoleCookie: Sendable {
    let secure: Bool
    /// The MAC with its key already taken in, copied for each cookie (the key's padding is
    /// hashed once, not at every view).
    private let keyed: HMAC<SHA256>
    static let path = "/admin"

    init(secure: Bool, key: SymmetricKey) {
        self.secure = secure
        self.keyed = HMAC<SHA256>(key: key)
    }

    var name: String { (secure ? "__Secure-" : "") + "console" }

    /// The cookie saying the console answered `session` at `now`.
    func seen(_ session: SessionToken, at now: Date) -> Cookie {
        let at = String(Int64(now.timeIntervalSince1970.rounded(.down)))
        var cookie = Cookie(
            name: name, value: at + "." + mac(session, at), path: Self.path,
            maxAge: Int(ConsoleAccess.idleWithin), secure: secure)
        cookie.sameSite = .strict
        return cookie
    }

    /// When the console last answered `session`, if this browser's cookie says so truly.
    func lastSeen(in request: Request, session: SessionToken) -> Double? {
        guard let value = request.cookie(name), let dot = value.firstIndex(of: "."),
            let at = Int64(value[..<dot]),
            constantTimeEquals(Data(value[value.index(after: dot)...].utf8), Data(mac(session, String(at)).utf8))
        else { return nil }
        return Double(at)
    }

    var cleared: Cookie { Cookie.expired(name: name, path: Self.path, secure: secure) }

    private func mac(_ session: SessionToken, _ at: String) -> String {
        var mac = keyed
        mac.update(data: Data("console.\(at).".utf8))
        mac.update(data: session.storageKey)
        return Data(mac.finalize()).base64URLEncodedString()
    }
}
