import AuthCore
import HTTPLite

/// The session cookie's name and flags: `session`, or `__Host-session` with `Secure` over HTTPS
/// (the prefix makes browsers refuse it without `Secure`, `Path=/` and a domain).
struct SessionCookie: Sendable {
    let name: String
    let secure: Bool
    /// Lifetime of the cookie for a signed-in session; pending sign-ins use a browser-session cookie.
    let signedInMaxAge: Int

    init(https: Bool, signedInMaxAge: Int) {
        self.name = https ? "__Host-session" : "session"
        self.secure = https
        self.signedInMaxAge = signedInMaxAge
    }

    func token(in request: Request) -> SessionToken? {
        request.cookie(name).flatMap(SessionToken.init)
    }

    func pending(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, secure: secure)
    }

    func signedIn(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, maxAge: signedInMaxAge, secure: secure)
    }

    func expired() -> Cookie {
        Cookie.expired(name: name, secure: secure)
    }
}
