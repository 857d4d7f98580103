import AccountCore
import AuthCore
import Foundation
import GatewayCore
import HTTPLite
import Logging
import OIDCCore
import Prometheus
import WalletCore

/// Every route of the app and who may see it, said once: the pages, the JSON API and the
/// operations routes, each mounted with its own middleware, and inside the pages and the API
/// the route groups whose contexts admit only the visitors each page is for.
struct Routes {
    let configuration: AppConfiguration
    let secret: ServerSecret
    let pages: Pages
    let signIn: SignInService
    /// `Public/`, in memory.
    let assets: StaticAssets
    let wallet: Wallet
    let storage: Storage
    /// Counts and times every request (also told of the server's own refusals).
    let requestMetrics: RequestMetrics
    let securityHeaders: SecurityHeaders
    let registry: PrometheusCollectorRegistry
    /// The app's clock (CSRF tokens' issue times and ages).
    let clock: @Sendable () -> Date
    /// Gateway mode's assertion signer; `nil` when gateway mode is off.
    var signer: AssertionSigner? = nil
    /// Passkeys; `nil` when they are off.
    var passkeys: PasskeyService? = nil
    /// The OpenID Connect provider; `nil` when it is off.
    var oidc: OIDCProvider? = nil
    /// Shared by the servers and /readyz: on from SIGTERM until the listener closes.
    let draining = Draining()
    var logger = Logger(label: "webapp")

    /// The whole app as one responder: the pages, the API and, unless they have a port of their
    /// own (``opsResponder()``), the operations routes.
    func responder() throws -> MiddlewareResponder<AppContext> {
        var mounts = [("/api", try apiRoutes())]
        if let gateway = gatewayRoutes() {
            mounts += [("/auth", gateway), ("/.well-known/jwks.json", gateway)]
        }
        if let oidc = oidcRoutes() {
            mounts += OIDCController.paths.map { ($0, oidc) }
            if configuration.gateway == nil { mounts.append(("/.well-known/jwks.json", oidc)) }
        }
        if let callbacks = callbackRoutes() { mounts.append(("/callbacks", callbacks)) }
        if let console = consoleRoutes() { mounts.append(("/admin", console)) }
        if let apps = configuration.passkeys?.apps, !apps.isEmpty {
            let wellKnown = WellKnownController(apps: apps).responder()
            mounts += WellKnownController.paths.map { ($0, wellKnown) }
        }
        if configuration.opsPort == nil {
            let ops = opsRoutes()
            mounts += OpsController.paths.sorted().map { ($0, ops) }
        }
        return aroundAll(PathPrefixResponder(mounts: mounts, fallback: pageRoutes()))
    }

    /// The operations routes alone, for the `--ops-port` listener.
    func opsResponder() -> MiddlewareResponder<AppContext> {
        aroundAll(opsRoutes())
    }

    /// Around everything a listener serves, once: metrics for every request, gzip for the
    /// answers worth it (``ResponseCompression``), security headers on every answer, errors no part answered (the 404 and 405 of /healthz/x) answered inside them,
    /// and in SMS test mode the guard that answers only this machine, before pages, API and files.
    private func aroundAll(_ responder: any HTTPResponder<AppContext>) -> MiddlewareResponder<AppContext> {
        let guarded: any HTTPResponder<AppContext> =
            configuration.sms.isTestMode
            ? MiddlewareResponder(middleware: TestModeGuard(), responder: responder) : responder
        let answered = MiddlewareResponder(
            middleware: securityHeaders,
            responder: MiddlewareResponder(middleware: ErrorMiddleware(), responder: guarded))
        return MiddlewareResponder(
            middleware: requestMetrics,
            responder: MiddlewareResponder(middleware: ResponseCompression<AppContext>(), responder: answered))
    }

    /// The pages: error pages, static files and CSRF for every path; each group looks up the
    /// session, and its context says who may see its pages.
    private func pageRoutes() -> any HTTPResponder<AppContext> {
        let router = Router<AppContext>()
        // First: the error pages are in the person's language too.
        router.add(middleware: LanguageChoice(secure: configuration.https))
        router.add(middleware: ErrorMiddleware.pages(pages))
        router.add(middleware: StaticFiles<AppContext>(assets: assets, urlPrefix: "/public"))
        router.add(
            middleware: CSRFProtection(tokens: CSRFTokens(secret: secret, clock: clock), https: configuration.https))
        // An app's sign-in under way, for an app added in the console: its forms may go there.
        if let oidc { router.add(middleware: OIDCFormTargets(provider: oidc, continuing: oidcContinue)) }
        // Unknown pages take as long as the console's door takes to turn a visitor away.
        if !configuration.operators.isEmpty {
            router.add(middleware: UnknownPageLookup(signIn: signIn, cookie: sessionCookie))
        }
        let session = SessionMiddleware(signIn: signIn, cookie: sessionCookie)

        var visitors = router.group().add(middleware: session)
        let returnAddress = configuration.gateway.map { ReturnAddressCookie(gateway: $0, https: configuration.https) }
        if let returnAddress {
            visitors = visitors.add(middleware: ReturnAddressMiddleware(cookie: returnAddress, session: sessionCookie))
        }
        let passkeyCookies = PasskeyCookies(secure: configuration.https)
        let signInPages = SignInController(
            signIn: signIn, pages: pages, cookie: sessionCookie,
            rememberedPhone: RememberedPhoneCookie(https: configuration.https),
            device: deviceCookie, returnAddress: returnAddress, gatewayDomain: configuration.gateway?.domain.name,
            deliveriesReported: deliveryCallbacks != nil,
            oidc: oidc.map { ($0, oidcContinue) }, passkeys: passkeys,
            passkeyCookies: passkeyCookies)
        signInPages.register(
            visitors: visitors, signedOut: visitors.group(context: SignedOutContext.self),
            signingIn: visitors.group(context: PendingSignInContext.self))
        // Home reads its wallet overview in the same database round trip as the session.
        let home = router.group().add(middleware: session.readingHome(wallet))
        let devices = DevicesController(
            signIn: signIn, pages: pages, device: deviceCookie, passkeys: passkeys, passkeyCookies: passkeyCookies,
            oidc: oidc)
        // "Confirm it's you": the pages that ask for a fresh proof first, and the page that takes it.
        let confirmed = visitors.group("").add(
            middleware: ProofCheck(signIn: signIn, within: configuration.policy.confirmWithin, clock: clock)
        ).group(context: ConfirmedContext.self)
        ConfirmController(
            signIn: signIn, pages: pages, cookie: sessionCookie,
            pending: .confirm(
                secure: configuration.https, maxAge: pendingCodeMaxAge, key: secret.derivedKey(purpose: "pending-code")),
            passkeys: passkeys, passkeyCookies: passkeyCookies
        ).register(signedIn: visitors.group(context: SignedInContext.self))
        devices.register(signedIn: visitors.group(context: SignedInContext.self), confirmed: confirmed)
        ActivityController(
            events: storage.events, pages: pages, clock: clock,
            appName: { [oidc] id in try await oidc?.client(id)?.name }
        ).register(
            signedIn: visitors.group(context: SignedInContext.self))
        // Your account: its forms go back to their own page after "Confirm it's you".
        AccountController(
            signIn: signIn, store: storage.account,
            rules: accountRules, recoveryCodes: recoveryCodes,
            pages: pages,
            cookies: SignOutCookies(
                session: sessionCookie, device: deviceCookie,
                rememberedPhone: RememberedPhoneCookie(https: configuration.https)),
            pending: .numberChange(
                secure: configuration.https, maxAge: pendingCodeMaxAge, key: secret.derivedKey(purpose: "pending-code")),
            connectedApps: oidc != nil,
            clock: clock
        ).register(
            signedIn: visitors.group(context: SignedInContext.self),
            confirmed: visitors.group("").add(
                middleware: ProofCheck(
                    signIn: signIn, within: configuration.policy.confirmWithin, clock: clock, afterPost: nil)
            ).group(context: ConfirmedContext.self))
        // "Is this your account?": a right code for a number that may have changed hands.
        ClaimController(
            signIn: signIn, recoveryCodes: recoveryCodes, pages: pages, cookie: sessionCookie
        ).register(claiming: visitors.group(context: ClaimingContext.self))
        // "Lost your phone or number?": a recovery code, then a code to the new number.
        RecoverController(
            signIn: signIn, recoveryCodes: recoveryCodes, pages: pages, session: sessionCookie,
            proof: recoveryProof,
            pending: .recovery(
                secure: configuration.https, maxAge: pendingCodeMaxAge, key: secret.derivedKey(purpose: "pending-code")),
            rememberedPhone: RememberedPhoneCookie(https: configuration.https)
        ).register(signedOut: visitors.group(context: SignedOutContext.self))
        WalletController(
            wallet: wallet, pages: pages, notice: WalletNotice(secure: configuration.https),
            passkeyCookies: passkeys == nil ? nil : passkeyCookies, passkeys: passkeys
        ).register(
            signedIn: visitors.group(context: SignedInContext.self), home: home.group(context: SignedInContext.self))
        if let oidc {
            ConsentController(
                provider: oidc, oidc: oidcController(oidc), pages: pages,
                continuing: oidcContinue, signIn: signIn, cookie: sessionCookie, landing: signInPages.landing
            ).register(signedIn: visitors.group(context: SignedInContext.self))
        }
        if let passkeys {
            PasskeyController(
                passkeys: passkeys, pages: pages, cookies: passkeyCookies, landing: signInPages.landing,
                devices: devices, recovery: (recoveryProof, signIn)
            ).register(
                signedOut: visitors.group(context: SignedOutContext.self),
                signedIn: visitors.group(context: SignedInContext.self), confirmed: confirmed)
        }
        return router.buildResponder()
    }

    /// The cookie that carries an app's sign-in across Login and Verify, signed.
    var oidcContinue: OIDCContinueCookie {
        OIDCContinueCookie(secure: configuration.https, key: secret.derivedKey(purpose: "oidc-continue"), clock: clock)
    }

    /// The session cookie: in gateway mode, for the gateway domain.
    var sessionCookie: SessionCookie {
        SessionCookie(
            https: configuration.https, signedInMaxAge: Int(configuration.policy.sessionLifetime),
            domain: configuration.gateway?.domain.name)
    }

    /// The account's rules: the key of what the limits' rows keep of a deleted account's numbers.
    var accountRules: AccountRules {
        AccountRules(
            forgettingKey: secret.derivedKey(purpose: "forgotten-numbers"), codeLifetime: configuration.policy.codeLifetime)
    }

    /// The proof "Lost your phone or number?" keeps (a recovery code's, or a passkey's of a
    /// detached account).
    var recoveryProof: RecoveryCookie {
        RecoveryCookie(
            secure: configuration.https, lifetime: configuration.policy.recoveryProofLifetime,
            key: secret.derivedKey(purpose: "recovery-proof"), clock: clock)
    }

    /// Recovery codes' digests, keyed by the server secret.
    var recoveryCodes: RecoveryCodes {
        RecoveryCodes(key: secret.derivedKey(purpose: "recovery-codes"))
    }

    /// How long a code in progress beside the session is kept: the code's life, and a little more.
    var pendingCodeMaxAge: Int {
        Int(configuration.policy.codeLifetime + configuration.policy.pendingSessionGrace)
    }

    private var deviceCookie: DeviceCookie {
        DeviceCookie(https: configuration.https, lifetime: Int(configuration.policy.deviceLifetime))
    }

    /// The provider whose reports the callbacks take, and this app's address they are under;
    /// `nil` when nothing reports (no `--public-url`, or the outbox or test mode).
    var deliveryCallbacks: (DeliveryCallbackController.Provider, String)? {
        guard let publicURL = configuration.publicURL ?? configuration.gateway?.publicURL else { return nil }
        switch configuration.sms {
        case .twilio(let twilio): return (.twilio(authToken: twilio.authToken, accountSID: twilio.accountSID), publicURL)
        case .webhook(let webhook): return (.webhook(secret: webhook.secret), publicURL)
        case .outbox, .test: return nil
        }
    }
}
