import AuthCore
import HTTPLite

/// A code in progress beside the signed-in session: the pending session its code belongs to,
/// while the signed-in one stays signed in until the code is right. "Confirm it's you" keeps one
/// on `/confirm` (a code to the person's own number), "Change your number" one on
/// `/account/phone` (a code to the new number). Only on its own path, `HttpOnly`, for as long as
/// a code can be typed; `__Secure-` with `--https`.
struct PendingCodeCookie: Sendable {
    let baseName: String
    let path: String
    let secure: Bool
    /// How long a code lasts, and a little more.
    let maxAge: Int

    static func confirm(secure: Bool, maxAge: Int) -> PendingCodeCookie {
        PendingCodeCookie(baseName: "confirm", path: "/confirm", secure: secure, maxAge: maxAge)
    }

    static func numberChange(secure: Bool, maxAge: Int) -> PendingCodeCookie {
        PendingCodeCookie(baseName: "number-change", path: "/account/phone", secure: secure, maxAge: maxAge)
    }

    var name: String { (secure ? "__Secure-" : "") + baseName }

    func pending(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, path: path, maxAge: maxAge, secure: secure)
    }

    func token(in request: Request) -> SessionToken? {
        request.cookie(name).flatMap(SessionToken.init)
    }

    var cleared: Cookie { Cookie.expired(name: name, path: path, secure: secure) }
}
