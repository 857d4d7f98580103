import AuthCore
import HTTPLite

/// The sign-in in progress behind "Confirm it's you": the pending session its code belongs
/// to, apart from the signed-in session (which stays signed in until the code is right). Only
/// on `/confirm`, `HttpOnly`, for as long as a code can be typed; `__Secure-` with `--https`.
struct ConfirmCookie: Sendable {
    let secure: Bool
    /// How long a code lasts, and a little more.
    let maxAge: Int

    static let path = "/confirm"
    var name: String { (secure ? "__Secure-" : "") + "confirm" }

    func pending(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, path: Self.path, maxAge: maxAge, secure: secure)
    }

    func token(in request: Request) -> SessionToken? {
        request.cookie(name).flatMap(SessionToken.init)
    }

    var cleared: Cookie { Cookie.expired(name: name, path: Self.path, secure: secure) }
}
