import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

/// Login, Verify and logout: the pages around ``SignInService``.
///
/// Who may see each page is said by its group's context: Login is for anyone not signed in
/// (``SignedOutContext``), Verify for a sign-in in progress (``PendingSignInContext``); signed
/// in goes to `/home`, no sign-in in progress to `/login`, so the back button can never reach a
/// page that no longer applies.
struct SignInController: Sendable {
    let signIn: SignInService
    let pages: Pages
    let cookie: SessionCookie
    let rememberedPhone: RememberedPhoneCookie
    let device: DeviceCookie
    /// Gateway mode: where signing in returns to (`rd=`); `nil` otherwise.
    var returnAddress: ReturnAddressCookie? = nil

    /// Where a sign-in lands, with its cookies.
    var landing: SignedInLanding {
        SignedInLanding(
            cookie: cookie, rememberedPhone: rememberedPhone, device: device, returnAddress: returnAddress,
            oidc: oidc?.cookie, oidcProvider: oidc?.provider)
    }
    /// Gateway mode: the domain whose apps all sign out with this one (said on `GET /logout`).
    var gatewayDomain: String? = nil
    /// The provider reports each send's delivery (`--public-url` with Twilio or the webhook):
    /// the pages then keep asking `/verify/status` until it is final.
    var deliveriesReported = false
    /// The OpenID Connect provider's clients and its pending request's cookie, when on: Login
    /// says which app the person signs in to, and fills in its `login_hint`.
    var oidc: (provider: OIDCProvider, cookie: OIDCContinueCookie)? = nil
    /// Passkeys, when on: a sign-in by text then has Home offer to create one.
    var passkeys: PasskeyService? = nil
    var passkeyCookies = PasskeyCookies(secure: false)

    /// Cookie that carries "a new code was sent" from the resend POST to the next GET /verify.
    static let noticeCookie = "notice"

    /// - Parameters:
    ///   - visitors: pages for anyone, signed in or not (where `/` leads, "Not you?", logout,
    ///     which ends whatever session the cookie names, a pending one too).
    ///   - signedOut: Login.
    ///   - signingIn: Verify.
    func register(
        visitors: RouteScope<AppContext>, signedOut: RouteScope<SignedOutContext>,
        signingIn: RouteScope<PendingSignInContext>
    ) {
        visitors.get("/", use: root)
        visitors.post("/login/forget", use: forgetPhone)
        signedOut.post("/login/remembered", use: continueRemembered)
        signedOut.get("/login/remembered") { _, _ in .redirect(to: "/login") }  // Reload or Back on its answer
        visitors.get("/login/forget") { _, _ in .redirect(to: "/login") }  // Reload or Back on its answer
        visitors.post("/logout", use: logout)
        visitors.get("/logout", use: showLogout)
        signedOut.get("/login", use: showLogin)
        signedOut.post("/login", use: submitLogin)
        signedOut.post("/login/call", use: submitLoginCall)
        signedOut.get("/login/call") { _, _ in .redirect(to: "/login") }  // Reload or Back on its answer
        signingIn.get("/verify", use: showVerify)
        signingIn.post("/verify", use: submitVerify)
        signingIn.get("/verify/help", use: showHelp)
        signingIn.get("/verify/status", use: deliveryStatus)
        signingIn.post("/verify/resend", use: resend)
        signingIn.get("/verify/resend", use: reloadResend)
        signingIn.post("/verify/call", use: call)
        signingIn.get("/verify/call", use: reloadResend)
    }

    @Sendable func root(_ request: Request, _ context: AppContext) async throws -> Response {
        .redirect(to: context.user == nil ? "/login" : "/home")
    }

    @Sendable func showLogin(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        let continuing = context.app.returnAddress?.host.name
        let app = try await landing.oidcClientName(in: request)
        let pages = pages.in(context.language)
        // Back from Verify: show the number the code went to, so it can be corrected.
        if let pending = context.pendingPhone {
            return try pages.login(
                csrf: context.csrfToken, phone: pending.nationalFormat, continuingTo: continuing, signingInTo: app)
        }
        // A phone remembered for a number ("Remember this phone" on Verify) offers "Continue as
        // (•••) •••-0123": one deliberate tap, never a plain Next. Not while an app's sign-in is
        // pending: the app asked for a sign-in (prompt=login, max_age), which a remembered
        // browser is not.
        let returning = ReturningBrowser(request, landing)
        let continueAs = returning.continueAs
        // Sent here by Log out, or from Verify because the sign-in ended: said once.
        let notice = LoginNotice(in: request)
        var (phone, remembered) = ("", false)
        if let hint = oidc?.cookie.loginHint(in: request), let hinted = try? PhoneNumber(parsing: hint) {
            // An app's sign-in may name the number (`login_hint`): filled in, to be checked.
            phone = hinted.nationalFormat
        } else if let last = returning.lastPhone {
            // The number that last signed in on this browser, with "Not you?" (it still gets a code).
            (phone, remembered) = (last.nationalFormat, true)
        }
        var page = try pages.login(
            csrf: context.csrfToken, phone: phone, remembered: remembered,
            notice: notice.map { pages.words($0.saying) },
            continuingTo: continuing, signingInTo: app, continueAs: continueAs, afterSignOut: notice == .signedOut)
        if notice != nil { page.setCookie(LoginNotice.cleared(secure: cookie.secure)) }
        return page
    }

    /// "Continue as (•••) •••-0123": the remembered phone signs in to the number it is
    /// remembered for, with no code. A device that is no longer remembered (expired, forgotten
    /// on Your devices, another number) gets Login with the number filled in, and a code.
    @Sendable func continueRemembered(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        // Whether the device is still valid for the number is decided here, when it is used.
        if let phone = ReturningBrowser(request, landing).continueAs,
            let token = device.token(in: request),
            let signedIn = try await signIn.signInRemembered(
                phoneInput: phone.e164, device: token, replacing: context.sessionToken,
                userAgent: request.headers[.userAgent], client: request.client?.group)
        {
            return landing.response(signedIn, context.app, request)
        }
        let pages = pages.in(context.language)
        var response = try pages.login(
            csrf: context.csrfToken, phone: rememberedPhone.phone(in: request)?.nationalFormat ?? "",
            notice: pages.words("login.notice.notRemembered"), continuingTo: context.app.returnAddress?.host.name,
            signingInTo: try await landing.oidcClientName(in: request))
        if device.token(in: request) != nil { response.setCookie(device.forget()) }
        return response
    }

    /// "Not you?": forgets the remembered number on this browser and shows an empty Login.
    /// "Not you?" also forgets this browser's remembered phone: else the owner's number, typed
    /// by the next person, would still go straight to Home.
    @Sendable func forgetPhone(_ request: Request, _ context: AppContext) async throws -> Response {
        var response = Response.redirect(to: context.user == nil ? "/login" : "/home")
        try await landing.forget(request, on: &response, signIn: signIn, number: true)
        return response
    }

    @Sendable func submitLogin(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        try await sendFirstCode(request, context, by: .sms)
    }

    /// Login's "Call me with the code instead", offered when a text could not be sent.
    @Sendable func submitLoginCall(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        try await sendFirstCode(request, context, by: .voice)
    }

    private func sendFirstCode(_ request: Request, _ context: SignedOutContext, by channel: DeliveryChannel)
        async throws -> Response
    {
        let phoneInput = try request.formData()["phone"] ?? ""
        do {
            // Next always sends a code, on a remembered phone too: the remembered way in is
            // "Continue as", a tap that names the account (``continueRemembered``).
            let result = try await signIn.requestCode(
                phoneInput: phoneInput, session: context.sessionToken, client: request.client?.group,
                userAgent: request.headers[.userAgent], channel: channel, language: context.language)
            // A call placed says so on Verify ("We're calling … now"), as Verify's own button does.
            var response = channel == .voice && result.sent ? notice(.called) : Response.redirect(to: "/verify")
            if result.session != context.sessionToken { response.setCookie(cookie.pending(result.session)) }
            return response
        } catch let error as SignInError {
            let offer = try await sentCodeStillWorks(after: error, typed: phoneInput, context)
            return try pages.in(context.language).login(
                csrf: context.csrfToken, phone: phoneInput,
                sentCodeExpiry: offer.map { Self.expiry(seconds: $0, pages.in(context.language).words) },
                offersCall: offer == nil ? await callInstead(after: error, typed: phoneInput) : false,
                continuingTo: context.app.returnAddress?.host.name, error: error,
                signingInTo: try await landing.oidcClientName(in: request))
        }
    }

    /// Whether Login, refused a text because the provider failed (now, or often enough lately
    /// that texts are paused), offers a call instead: where calls are placed to the number and
    /// are not paused themselves.
    private func callInstead(after error: SignInError, typed: String) async -> Bool {
        switch error {
        case .deliveryFailed, .deliveryPaused(.sms, _):
            guard let phone = try? PhoneNumber(parsing: typed) else { return false }
            return await signIn.callPossible(to: phone)
        default:
            return false
        }
    }

    /// After Login was refused a new text for the number this browser is already signing in
    /// with, the seconds the code already sent still lasts, if it can still be typed: Login then
    /// offers "Enter the code we already sent" instead of only saying to wait. `nil` for another
    /// number, a refusal that is not about sending, or a code that is used up.
    private func sentCodeStillWorks(after error: SignInError, typed: String, _ context: SignedOutContext)
        async throws -> Int?
    {
        switch error {
        case .resendTooSoon, .callTooSoon, .tooManyCodesForPhone, .tooManyCodesFromClient, .tooManyCodesForExchange,
            .textsUnavailable, .callsUnavailable, .deliveryFailed, .deliveryPaused:
            guard let pending = context.pendingPhone, (try? PhoneNumber(parsing: typed)) == pending else { return nil }
            let status = try await signIn.codeStatus(for: pending)
            guard let triesLeft = status.triesLeft, triesLeft > 0 else { return nil }
            return status.expiresIn
        default:
            return nil
        }
    }

    @Sendable func showVerify(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        let phone = context.phone
        let words = pages.in(context.language).words
        let notice = request.cookie(Self.noticeCookie).flatMap(Notice.init(rawValue:))?.sentence(words, phone: phone)
        // A locked number, or a code that took its last try or expired, stays so on reload: the
        // page says what the POST said, and offers only what it offered.
        let status = try await signIn.codeStatus(for: phone)
        let dead: SignInError? =
            if let seconds = status.lockedFor {
                .phoneLocked(seconds: seconds)
            } else {
                switch status.triesLeft {
                case 0: .tooManyAttempts
                case nil: .codeExpired
                default: nil
                }
            }
        var response = try pages.in(context.language).verify(
            csrf: context.csrfToken, phone: phone, resendWait: status.resendWait,
            codeLifetime: signIn.policy.codeLifetime, notice: dead == nil ? notice : nil,
            delivery: delivery(status, phone, context.language), error: dead,
            signingInTo: try await landing.oidcClientName(in: request))
        if request.cookie(Self.noticeCookie) != nil {
            response.setCookie(Cookie.expired(name: Self.noticeCookie, path: "/verify", secure: cookie.secure))
        }
        return response
    }

    @Sendable func submitVerify(_ request: Request, _ context: PendingSignInContext) async throws -> Response {
        let (token, phone) = (context.session, context.phone)
        let form = try request.formData()
        let typed = form["code"] ?? (1...6).map { form["d\($0)"] ?? "" }.joined()
        // People and autofill add spaces or a dash ("123 456", "123-456").
        let code = String(typed.filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
        do {
            let signedIn = try await signIn.verify(
                session: token, pendingFor: phone, codeInput: code, client: request.client?.group,
                rememberDevice: form["remember"] == "on", userAgent: request.headers[.userAgent],
                rememberedHere: device.token(in: request))
            var response = landing.response(signedIn, context.app, request)
            // The box left unticked on a phone remembered before: the person chose not to be
            // remembered here any more.
            if form["remember"] != "on" { try await landing.forget(request, on: &response, signIn: signIn) }
            // Signed in by text: Home offers a passkey, unless the person has one or said no.
            if let passkeys, (try? await passkeys.offers(to: signedIn.user)) == true {
                response.setCookie(passkeyCookies.offer)
            }
            return response
        } catch let dormant as DormantAccount {
            // The number may have changed hands: "Is this your account?" before anything of it.
            var response = Response.redirect(to: "/claim")
            response.setCookie(cookie.pending(dormant.claim))
            return response
        } catch SignInError.noPendingSignIn {
            return Redirect.toLoginExpired(secure: cookie.secure).response
        } catch let error as SignInError {
            let status = try await signIn.codeStatus(for: phone)
            return try pages.in(context.language).verify(
                csrf: context.csrfToken, phone: phone, resendWait: status.resendWait,
                codeLifetime: signIn.policy.codeLifetime, triesLeft: error == .incorrectCode ? status.triesLeft : nil,
                delivery: delivery(status, phone, context.language), error: error,
                signingInTo: try await landing.oidcClientName(in: request))
        }
    }

}
