import AuthCore
import HTTPLite
import OIDCCore

/// Where a sign-in lands, by code, remembered device or passkey: Home (in gateway mode, the
/// protected app that sent the person, when one did), with the signed-in session's cookie, the
/// number to fill in next time and, when this browser is remembered, its (new) device token.
struct SignedInLanding: Sendable {
    let cookie: SessionCookie
    let rememberedPhone: RememberedPhoneCookie
    let device: DeviceCookie
    var returnAddress: ReturnAddressCookie? = nil
    /// An app's sign-in in progress (OpenID Connect): the person goes back to it.
    var oidc: OIDCContinueCookie? = nil
    var oidcProvider: OIDCProvider? = nil

    func response(_ signedIn: SignInService.SignedIn, _ context: AppContext, _ request: Request) -> Response {
        let app = oidc?.pending(in: request).map { "/oidc/authorize?" + $0.query }
        var response = Response.redirect(to: app ?? context.returnAddress?.url ?? "/home")
        if let returnAddress, context.returnAddress != nil { response.setCookie(returnAddress.cleared()) }
        response.setCookie(cookie.signedIn(signedIn.session))
        response.setCookie(rememberedPhone.remember(signedIn.user.phone))
        if let token = signedIn.device {
            response.setCookie(device.remember(token))
        } else if device.token(in: request) != nil, rememberedPhone.phone(in: request) != signedIn.user.phone {
            // The browser was remembered for another number: Login would offer "Continue as" the
            // number just signed in with, which that device cannot sign in to.
            response.setCookie(device.forget())
        }
        return response
    }

    /// Forgets the phone this browser is remembered as, on the server and in the browser
    /// ("Not you?", a box left unticked); with `number`, the number Login fills in too.
    func forget(
        _ request: Request, on response: inout Response, signIn: SignInService, number: Bool = false
    ) async throws {
        if number { response.setCookie(rememberedPhone.forget()) }
        guard let token = device.token(in: request) else { return }
        try await signIn.forgetDevice(token, userAgent: request.headers[.userAgent], client: request.client?.group)
        response.setCookie(device.forget())
    }

    /// The app a pending OpenID Connect sign-in is for, for "Sign in to Grafana".
    func oidcClientName(in request: Request) async throws -> String? {
        try await oidc?.client(in: request, provider: oidcProvider)?.name
    }
}
