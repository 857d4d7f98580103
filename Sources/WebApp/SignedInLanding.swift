import AuthCore
import HTTPLite

/// Where a sign-in lands, by code, remembered device or passkey: Home (in gateway mode, the
/// protected app that sent the person, when one did), with the signed-in session's cookie, the
/// number to fill in next time and, when this browser is remembered, its (new) device token.
struct SignedInLanding: Sendable {
    let cookie: SessionCookie
    let rememberedPhone: RememberedPhoneCookie
    let device: DeviceCookie
    var returnAddress: ReturnAddressCookie? = nil

    func response(_ signedIn: SignInService.SignedIn, _ context: AppContext) -> Response {
        var response = Response.redirect(to: context.returnAddress?.url ?? "/home")
        if let returnAddress, context.returnAddress != nil { response.setCookie(returnAddress.cleared()) }
        response.setCookie(cookie.signedIn(signedIn.session))
        response.setCookie(rememberedPhone.remember(signedIn.user.phone))
        if let token = signedIn.device { response.setCookie(device.remember(token)) }
        return response
    }
}
