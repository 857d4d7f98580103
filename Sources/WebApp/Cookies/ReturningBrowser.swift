import AuthCore
import HTTPLite

/// What Login shows of this browser's past, from its cookies: the number it is remembered for
/// ("Continue as (•••) •••-0123", a device cookie beside the last number), else the number that
/// last signed in here ("Welcome back", filled in; it still gets a code). Login and the Login a
/// refused passkey lands on show the same, so a refusal never hides either.
struct ReturningBrowser {
    /// The number a remembered phone may continue as; never while an app's sign-in is pending
    /// (the app asked for a sign-in, which a remembered browser is not).
    let continueAs: PhoneNumber?
    /// The number that last signed in here, when there is no `continueAs`.
    let lastPhone: PhoneNumber?

    init(_ request: Request, _ landing: SignedInLanding) {
        let last = landing.rememberedPhone.phone(in: request)
        let appWaiting = landing.oidc?.pending(in: request) != nil
        continueAs = !appWaiting && landing.device.token(in: request) != nil ? last : nil
        lastPhone = continueAs == nil ? last : nil
    }
}
