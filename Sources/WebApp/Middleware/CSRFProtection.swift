import AuthCore
import HTTPLite
import HTTPTypes
import Wording

/// Refuses forged form posts with 403 before they reach a route.
///
/// Every visitor gets a signed token in a cookie (set on the first page, no database write);
/// every form repeats it, masked with a fresh pad on every page, in a hidden `csrf` field. A POST must carry both, equal, signed by us
/// and less than a day old (``AuthCore/CSRFTokens/lifetime``): an expired token is refused like
/// a forged one, and is treated as none on the next page, which sets a fresh one. Where the browser says where the request came from (`Sec-Fetch-Site`, `Origin`), a
/// request from another site is refused even before that.
struct CSRFProtection: Middleware {
    static let fieldName = "csrf"
    static let rejection = "This form has expired or did not come from this site. Please reload the page and try again."

    let tokens: CSRFTokens
    let cookieName: String
    let secure: Bool

    init(tokens: CSRFTokens, https: Bool) {
        self.tokens = tokens
        self.cookieName = https ? "__Host-csrf" : "csrf"
        self.secure = https
    }

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        let cookieToken = request.cookie(cookieName).flatMap { tokens.isValid($0) ? $0 : nil }
        // POST is the only state-changing method any route accepts; others fall through to
        // the router's 405.
        if request.method == .post {
            if let site = request.headers[.secFetchSite], site != "same-origin", site != "none" {
                context.logger.notice("Refused cross-site request", metadata: ["sec-fetch-site": "\(site)"])
                throw StatusError(.forbidden, Phrase("http.csrf"), message: Self.rejection)
            }
            if let origin = request.headers[.origin],
                !Self.origin(origin, matchesHost: request.authority)
            {
                context.logger.notice("Refused request from another origin")
                throw StatusError(.forbidden, Phrase("http.csrf"), message: Self.rejection)
            }
            let formToken = try request.formData()[Self.fieldName] ?? ""
            guard let cookieToken, tokens.matches(formToken: formToken, cookieToken: cookieToken) else {
                context.logger.notice("Refused form without a valid CSRF token")
                throw StatusError(.forbidden, Phrase("http.csrf"), message: Self.rejection)
            }
        }
        var context = context
        let token = cookieToken ?? tokens.issue()
        // The pages carry the token masked afresh each time, so a compressed page repeats no
        // secret (``AuthCore/CSRFTokens/masked(_:)``); the cookie keeps it as it is.
        context.csrfToken = tokens.masked(token)
        var response = try await next(request, context)
        if cookieToken == nil {
            response.setCookie(Cookie(name: cookieName, value: token, secure: secure))
        }
        return response
    }

    /// `Origin: http://host:port` against the `Host` header the browser sent with it.
    static func origin(_ origin: String, matchesHost host: String?) -> Bool {
        guard let host, let schemeEnd = origin.range(of: "://") else { return false }
        return origin[schemeEnd.upperBound...].lowercased() == host.lowercased()
    }
}
