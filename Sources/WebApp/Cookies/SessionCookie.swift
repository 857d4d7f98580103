import AuthCore
import HTTPLite

/// The session cookie's name and flags: `session`, or `__Host-session` with `Secure` over HTTPS
/// (the prefix makes browsers refuse it without `Secure`, `Path=/` and a domain).
///
/// In gateway mode the cookie is set for the gateway domain, so that the protected apps'
/// requests carry it to the proxy's check: it is then `__Secure-session` over HTTPS (`__Host-`
/// forbids a domain), and every host on that domain receives it (docs/GATEWAY.md).
struct SessionCookie: Sendable {
    let name: String
    let secure: Bool
    /// Lifetime of the cookie for a signed-in session; pending sign-ins use a browser-session cookie.
    let signedInMaxAge: Int
    /// The gateway domain, in gateway mode.
    let domain: String?

    init(https: Bool, signedInMaxAge: Int, domain: String? = nil) {
        switch (https, domain) {
        case (false, _): self.name = "session"
        case (true, nil): self.name = "__Host-session"
        case (true, _?): self.name = "__Secure-session"
        }
        self.secure = https
        self.signedInMaxAge = signedInMaxAge
        self.domain = domain
    }

    func token(in request: Request) -> SessionToken? {
        request.cookie(name).flatMap(SessionToken.init)
    }

    /// Every session token the request carries under this name, at most three: in gateway mode a
    /// browser may still hold the host's own cookie of the same name from before, beside the
    /// domain's (without `--https` both are `session`).
    func tokens(in request: Request) -> [SessionToken] {
        Array(request.cookieValues(name).lazy.compactMap(SessionToken.init).prefix(3))
    }

    /// Deletes the host's own cookie of this name, where the domain's is the one in use.
    func expiredHostOnly() -> Cookie? {
        domain == nil ? nil : Cookie.expired(name: name, secure: secure)
    }

    func pending(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, secure: secure, domain: domain)
    }

    func signedIn(_ token: SessionToken) -> Cookie {
        Cookie(name: name, value: token.value, maxAge: signedInMaxAge, secure: secure, domain: domain)
    }

    func expired() -> Cookie {
        Cookie.expired(name: name, secure: secure, domain: domain)
    }
}
