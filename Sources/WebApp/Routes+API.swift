import AccountCore
import AuthCore
import Foundation
import GatewayCore
import HTTPLite
import Logging
import OIDCCore
import Prometheus
import WalletCore

/// The JSON API, the providers' delivery callbacks and the operations routes (metrics, health).
extension Routes {
    /// The JSON API under `/api`: JSON errors, no cookies, no CSRF forms, the same rules; the
    /// calls that need a caller in a group with the bearer token.
    func apiRoutes() throws -> any HTTPResponder<AppContext> {
        let router = Router<AppContext>()
        router.add(middleware: LanguageChoice(secure: configuration.https, headerOnly: true))
        router.add(middleware: ErrorMiddleware.api(pages.wording))
        let v1 = router.group("api/v1")
        let signedIn = v1.group().add(middleware: BearerAuthentication(signIn: signIn))
            .group(context: APIUserContext.self)
        APIController(
            signIn: signIn,
            openAPIDocument: try Data(contentsOf: URL(fileURLWithPath: configuration.openAPIDocumentPath))
        ).register(v1: v1, signedIn: signedIn)
        WalletAPIController(wallet: wallet, wording: pages.wording).register(signedIn: signedIn)
        SessionsAPIController(signIn: signIn, wording: pages.wording).register(signedIn: signedIn)
        // The account's sensitive calls take only a token from a recent verification.
        let confirmed = v1.group().add(middleware: BearerAuthentication(signIn: signIn))
            .add(middleware: ProofCheck(signIn: signIn, within: configuration.policy.confirmWithin, clock: clock))
            .group(context: APIConfirmedContext.self)
        AccountAPIController(signIn: signIn, store: storage.account, rules: accountRules, clock: clock).register(
            signedIn: signedIn, confirmed: confirmed)
        RecoveryAPIController(signIn: signIn, recoveryCodes: recoveryCodes, proof: recoveryProof).register(v1: v1)
        ClaimAPIController(signIn: signIn, recoveryCodes: recoveryCodes).register(v1: v1)
        ActivityAPIController(events: storage.events, clock: clock).register(signedIn: signedIn)
        if let passkeys {
            PasskeysAPIController(
                passkeys: passkeys, policy: configuration.policy, wording: pages.wording,
                recovery: (recoveryProof, signIn)
            ).register(
                v1: v1, signedIn: signedIn)
        }
        return router.buildResponder()
    }

    /// The provider's delivery reports: no sessions, no CSRF cookie (the provider's signature
    /// stands in for both), JSON errors. `nil` without `--public-url` or with a provider that
    /// reports nothing (the outbox, test mode).
    func callbackRoutes() -> (any HTTPResponder<AppContext>)? {
        guard let (provider, publicURL) = deliveryCallbacks else { return nil }
        let router = Router<AppContext>()
        router.add(middleware: ErrorMiddleware.api(pages.wording))
        DeliveryCallbackController(signIn: signIn, provider: provider, publicURL: publicURL, logger: logger)
            .register(on: router)
        return router.buildResponder()
    }

    /// Health, readiness and metrics: no sessions, no CSRF cookie, nothing written.
    func opsRoutes() -> any HTTPResponder<AppContext> {
        let router = Router<AppContext>()
        OpsController(ping: storage.ping, draining: draining, registry: registry).register(on: router)
        return router.buildResponder()
    }
}
