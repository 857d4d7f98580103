import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

/// Log out: the session ends (in gateway mode for every protected app), and the page apps link to.
extension SignInController {
    /// Ends whatever session the cookie names: in gateway mode, for every protected app too
    /// (their proxy asks about the same session).
    @Sendable func logout(_ request: Request, _ context: AppContext) async throws -> Response {
        if let token = context.sessionToken {
            try await signIn.signOut(
                session: token, by: context.user?.id, userAgent: request.headers[.userAgent],
                client: request.client?.group)
        }
        var response = Response.redirect(to: "/login")
        response.setCookie(cookie.expired())
        response.setCookie(LoginNotice.signedOut.cookie(secure: cookie.secure))
        // A phone not remembered keeps no number after Log out (the next person on a shared
        // phone sees an empty Login); a remembered one offers "Continue as (•••) •••-0123".
        if device.token(in: request) == nil { response.setCookie(rememberedPhone.forget()) }
        if let returnAddress, request.cookie(returnAddress.name) != nil { response.setCookie(returnAddress.cleared()) }
        return response
    }

    /// The sign-out page a protected app can link to; signed out, Login.
    @Sendable func showLogout(_ request: Request, _ context: AppContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/login") }
        return try pages.in(context.language).logout(csrf: context.csrfToken, user: user, domain: gatewayDomain)
    }
}
