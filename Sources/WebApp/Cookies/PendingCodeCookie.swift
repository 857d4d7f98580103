import AuthCore
import Crypto
import Encodings
import Foundation
import HTTPLite

/// A code in progress beside the signed-in session: the pending session its code belongs to,
/// while the signed-in one stays signed in until the code is right. "Confirm it's you" keeps one
/// on `/confirm` (a code to the person's own number), "Change your number" one on
/// `/account/phone` (a code to the new number). Only on its own path, `HttpOnly`, for as long as
/// a code can be typed; `__Secure-` with `--https`.
///
/// The value is the pending token and a MAC over it, the signed-in person's id and the cookie's
/// purpose, under a key derived from the server secret: a pending sign-in's token taken from
/// Login, another person's change left in a shared browser, or the other purpose's cookie is
/// ignored.
struct PendingCodeCookie: Sendable {
    let baseName: String
    let path: String
    let secure: Bool
    /// How long a code lasts, and a little more.
    let maxAge: Int
    let key: SymmetricKey

    static func confirm(secure: Bool, maxAge: Int, key: SymmetricKey) -> PendingCodeCookie {
        PendingCodeCookie(baseName: "confirm", path: "/confirm", secure: secure, maxAge: maxAge, key: key)
    }

    static func numberChange(secure: Bool, maxAge: Int, key: SymmetricKey) -> PendingCodeCookie {
        PendingCodeCookie(baseName: "number-change", path: "/account/phone", secure: secure, maxAge: maxAge, key: key)
    }

    /// "Lost your phone or number?": the code to the new number, after a recovery code (the
    /// "person" is the account being recovered).
    static func recovery(secure: Bool, maxAge: Int, key: SymmetricKey) -> PendingCodeCookie {
        PendingCodeCookie(baseName: "recovery-code", path: "/recover", secure: secure, maxAge: maxAge, key: key)
    }

    var name: String { (secure ? "__Secure-" : "") + baseName }

    /// The cookie for `token`, started by the signed-in person `user`.
    func pending(_ token: SessionToken, for user: User) -> Cookie {
        pending(token, forAccount: user.id)
    }

    /// The cookie for `token`, for the account `account` (a recovery's, which may have no number).
    func pending(_ token: SessionToken, forAccount account: Int64) -> Cookie {
        Cookie(name: name, value: token.value + "." + mac(token, account), path: path, maxAge: maxAge, secure: secure)
    }

    /// The pending token, when the cookie is one this person started for this purpose.
    func token(in request: Request, for user: User) -> SessionToken? {
        token(in: request, forAccount: user.id)
    }

    func token(in request: Request, forAccount account: Int64) -> SessionToken? {
        guard let value = request.cookie(name), let dot = value.lastIndex(of: "."),
            let token = SessionToken(String(value[..<dot])),
            constantTimeEquals(Data(value[value.index(after: dot)...].utf8), Data(mac(token, account).utf8))
        else { return nil }
        return token
    }

    var cleared: Cookie { Cookie.expired(name: name, path: path, secure: secure) }

    private func mac(_ token: SessionToken, _ account: Int64) -> String {
        let message = Data("\(baseName).\(account).\(token.value)".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64URLEncodedString()
    }
}
