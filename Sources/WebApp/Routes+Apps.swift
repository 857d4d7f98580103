import AccountCore
import AuthCore
import Foundation
import GatewayCore
import HTTPLite
import Logging
import OIDCCore
import Prometheus
import WalletCore

/// The routes for other apps: the console, the OpenID Connect provider and gateway mode (forward-auth).
extension Routes {
    /// The operators' console under `/admin`: the pages' middleware in the pages' order (so a
    /// visitor who is not an operator gets the very answer an unknown page gets), then the
    /// ``OperatorGate`` before any route is matched (404 whatever the method). `nil` without
    /// `--admins` (then `/admin` is an unknown page of the pages).
    func consoleRoutes() -> (any HTTPResponder<AppContext>)? {
        guard !configuration.operators.isEmpty else { return nil }
        let router = Router<AppContext>()
        router.add(middleware: LanguageChoice(secure: configuration.https))
        router.add(middleware: ErrorMiddleware.pages(pages))
        router.add(
            middleware: CSRFProtection(tokens: CSRFTokens(secret: secret, clock: clock), https: configuration.https))
        router.add(
            middleware: SessionMiddleware(signIn: signIn, cookie: sessionCookie)
                .readingPasskey(storage.console, of: configuration.operators))
        router.add(
            middleware: OperatorGate(
                operators: configuration.operators, signIn: signIn, passkeys: passkeys,
                cookie: ConsoleCookie(secure: configuration.https, key: secret.derivedKey(purpose: "console-seen")),
                clock: clock))
        let console = router.group()
        ConsoleController(
            signIn: signIn, accounts: storage.account, events: storage.events, console: storage.console,
            passkeys: passkeys, oidc: oidc,
            pages: pages, accountRules: accountRules, clock: clock
        ).register(
            visitors: console.group(context: ConsoleVisitorContext.self),
            operators: console.group(context: OperatorContext.self),
            acting: console.group(context: ActingOperatorContext.self))
        ConsoleAttachController(
            signIn: signIn, accounts: storage.account, pages: pages,
            pending: PendingCodeCookie(
                baseName: "console-attach", path: "/admin/people/attach", secure: configuration.https,
                maxAge: pendingCodeMaxAge, key: secret.derivedKey(purpose: "pending-code")),
            clock: clock
        ).register(
            operators: console.group(context: OperatorContext.self),
            acting: console.group(context: ActingOperatorContext.self))
        if let passkeys {
            EnrollController(
                passkeys: passkeys, console: storage.console, pages: pages,
                cookies: PasskeyCookies(secure: configuration.https), clock: clock
            ).register(visitors: console.group(context: ConsoleVisitorContext.self))
        }
        if let oidc, let apps = oidc.apps {
            ConsoleAppsController(provider: oidc, apps: apps, pages: pages, clock: clock).register(
                operators: console.group(context: OperatorContext.self),
                acting: console.group(context: ActingOperatorContext.self))
        }
        return router.buildResponder()
    }

    /// The OpenID Connect provider's endpoints: the session looked up, the pages' language and
    /// error pages, no CSRF cookie (clients post to the token endpoint from their servers).
    func oidcRoutes() -> (any HTTPResponder<AppContext>)? {
        guard let oidc, let signer else { return nil }
        let router = Router<AppContext>()
        router.add(middleware: LanguageChoice(secure: configuration.https))
        router.add(middleware: ErrorMiddleware.pages(pages))
        let visitors = router.group().add(middleware: SessionMiddleware(signIn: signIn, cookie: sessionCookie))
        oidcController(oidc).register(visitors: visitors)
        router.get("/.well-known/jwks.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                body: .init(bytes: signer.keySetJSON))
        }
        return router.buildResponder()
    }

    func oidcController(_ provider: OIDCProvider) -> OIDCController {
        OIDCController(
            provider: provider, signIn: signIn, pages: pages,
            continuing: oidcContinue,
            sessionCookie: sessionCookie)
    }

    /// Gateway mode's checks for the reverse proxy and its key set: the session cookie looked
    /// up, no CSRF cookie, no page rendered but the 403's. `nil` when gateway mode is off.
    func gatewayRoutes() -> (any HTTPResponder<AppContext>)? {
        guard let gateway = configuration.gateway, let signer else { return nil }
        let router = Router<AppContext>()
        router.add(middleware: LanguageChoice(secure: configuration.https, headerOnly: true))
        let visitors = router.group().add(middleware: SessionMiddleware(signIn: signIn, cookie: sessionCookie))
        GatewayController(gateway: gateway, signer: signer, wallet: wallet, pages: pages).register(
            visitors: visitors, keys: router)
        return router.buildResponder()
    }
}
