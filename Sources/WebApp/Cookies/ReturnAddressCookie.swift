import Foundation
import GatewayCore
import HTTPLite

/// Carries Login's `rd=` (where a protected app sent the person from) through Login, Verify,
/// a resend or a remembered phone to the sign-in's redirect: `rd`, or `__Host-rd` over HTTPS
/// (no other host can set it), for 30 minutes. Read back, it is checked again like the first
/// time, so a cookie set by anyone else still only leads somewhere on the gateway domain.
struct ReturnAddressCookie: Sendable {
    let gateway: Gateway
    let name: String
    let secure: Bool

    /// How long a sign-in may take and still return to where it started.
    static let lifetime = 30 * 60

    init(gateway: Gateway, https: Bool) {
        self.gateway = gateway
        self.name = https ? "__Host-rd" : "rd"
        self.secure = https
    }

    /// The address the cookie carries, when it is still a safe one.
    func address(in request: Request) -> ReturnAddress? {
        guard let value = request.cookie(name), let data = Data(base64Encoded: value) else { return nil }
        return gateway.returnAddress(String(decoding: data, as: UTF8.self))
    }

    /// Keeps `address` (base64: a URL may hold `;`, `,` or `"`, which a cookie value may not).
    func keep(_ address: ReturnAddress) -> Cookie {
        Cookie(
            name: name, value: Data(address.url.utf8).base64EncodedString(), maxAge: Self.lifetime, secure: secure)
    }

    func cleared() -> Cookie {
        Cookie.expired(name: name, secure: secure)
    }
}

/// Gateway mode, on the sign-in pages: `GET /login?rd=URL` keeps a safe `rd` (and drops an
/// unsafe one, and any kept before it); every other page finds the kept one in the context
/// (``AppContext/returnAddress``), where Login, Verify and the signed-in redirect look.
///
/// A signed-in person sent to Login by an app goes straight back, with the session cookie set
/// again for the domain: a browser signed in before gateway mode was turned on holds it for this
/// host alone, the app never receives it, and the app and Login would send the person back and
/// forth for ever.
struct ReturnAddressMiddleware: Middleware {
    typealias Context = AppContext
    let cookie: ReturnAddressCookie
    let session: SessionCookie

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        guard request.method == .get, request.path == "/login", let given = request.query["rd"] else {
            context.returnAddress = cookie.address(in: request)
            return try await next(request, context)
        }
        context.returnAddress = cookie.gateway.returnAddress(given)
        if context.returnAddress == nil {
            context.logger.notice("Login's rd= is not an address on the gateway domain: ignored")
        }
        if let address = context.returnAddress, context.user != nil, let token = context.sessionToken {
            var response = Response.redirect(to: address.url)
            response.setCookie(session.signedIn(token))
            return response
        }
        var response = try await next(request, context)
        if let address = context.returnAddress, context.user == nil {
            response.setCookie(cookie.keep(address))
        } else if request.cookie(cookie.name) != nil {
            response.setCookie(cookie.cleared())
        }
        return response
    }
}
