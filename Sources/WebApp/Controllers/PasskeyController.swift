import AuthCore
import Foundation
import HTTPLite
import WebAuthnCore
import Wording

/// Passkeys on the pages: signing in with one from Login, creating one from Home's offer or
/// "Your devices", renaming and removing them there.
///
/// The browser's part is `passkeys.js`: it asks for options here (JSON), runs the ceremony, and
/// posts the answer in an ordinary form (`credential`, with the CSRF token), so the answer lands
/// like every other form: a redirect on success, the page with the reason on a refusal.
struct PasskeyController: Sendable {
    let passkeys: PasskeyService
    let pages: Pages
    let cookies: PasskeyCookies
    let landing: SignedInLanding
    /// "Your devices", shown again with the reason a change was refused.
    let devices: DevicesController
    /// The proof "Lost your phone or number?" keeps, for a passkey of a detached account.
    var recovery: (RecoveryCookie, SignInService)? = nil

    /// - Parameter confirmed: the group of what asks "Confirm it's you" first (removing a passkey).
    func register(
        signedOut: RouteScope<SignedOutContext>, signedIn: RouteScope<SignedInContext>,
        confirmed: RouteScope<ConfirmedContext>
    ) {
        signedOut.post("/login/passkey/options", use: signInOptions)
        signedOut.post("/login/passkey", use: signIn)
        signedIn.post("/passkeys/options", use: creationOptions)
        signedIn.post("/passkeys", use: create)
        signedIn.post("/passkeys/offer/dismiss", use: dismissOffer)
        signedIn.post("/devices/passkeys/:id/rename", use: rename)
        confirmed.post("/devices/passkeys/:id/remove", use: remove)
        // Reload or Back on a form's answer asks for its address with GET: the page it came from.
        signedOut.get("/login/passkey") { _, _ in .redirect(to: "/login") }
        confirmed.get("/devices/passkeys/:id/remove", use: confirmRemoval)
        for address in ["/passkeys", "/devices/passkeys/:id/rename"] {
            signedIn.get(address) { _, _ in .redirect(to: "/devices") }
        }
        signedIn.get("/passkeys/offer/dismiss") { _, _ in .redirect(to: "/home") }
    }

    // MARK: Signing in

    /// Options for `navigator.credentials.get()`, and the cookie that binds their challenge to
    /// this browser.
    @Sendable func signInOptions(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        try await Self.refusalAsJSON(pages.in(context.language)) {
            let challenge = try await passkeys.signInOptions(
                client: request.client?.group, token: cookies.challengeToken(in: request))
            var response = try Self.json(challenge.options)
            response.setCookie(cookies.challenge(challenge.token))
            return response
        }
    }

    /// The browser's answer: Home (or the app that sent the person) on success, signed in as
    /// after a right code; Login with the reason otherwise.
    @Sendable func signIn(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        let credential = Data((try request.formData()["credential"] ?? "").utf8)
        do {
            guard let token = cookies.challengeToken(in: request) else { throw PasskeyError.challengeExpired }
            let signedIn = try await passkeys.signIn(
                credential, token: token, replacing: context.sessionToken, client: request.client?.group,
                userAgent: request.headers[.userAgent])
            var response = landing.response(signedIn, context.app, request)
            response.setCookie(cookies.challengeCleared)
            return response
        } catch let detached as DetachedAccount {
            // Its number went to someone new: the passkey proves the account as a recovery code
            // would, and the person gives it a new number.
            guard let (recovery, signIn) = recovery, let made = try await recovery.proved(detached.account, as: signIn)
            else { throw detached }
            var response = Response.redirect(to: "/recover/phone")
            response.setCookie(made.cookie)
            response.setCookie(cookies.challengeCleared)
            return response
        } catch let error as any AnsweringError where error is PasskeyError || error is SignInError {
            // Login as it was, with the refusal: a passkey the phone still offers after it was
            // removed here must not also hide "Welcome back" or "Continue as".
            let returning = ReturningBrowser(request, landing)
            var page = try pages.in(context.language).login(
                csrf: context.csrfToken, phone: returning.lastPhone?.nationalFormat ?? "",
                remembered: returning.lastPhone != nil, continuingTo: context.app.returnAddress?.host.name,
                signingInTo: try await landing.oidcClientName(in: request), passkeyRefusal: error,
                continueAs: returning.continueAs)
            page.setCookie(cookies.challengeCleared)
            return page
        }
    }

    // MARK: Creating, renaming, removing

    /// Options for `navigator.credentials.create()`, with a challenge for this session.
    @Sendable func creationOptions(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let session = context.app.sessionToken else { throw Redirect.toLogin }
        return try await Self.refusalAsJSON(pages.in(context.language)) {
            try Self.json(try await passkeys.creationOptions(for: context.user, session: session))
        }
    }

    /// The options' refusals (a client's limit, a person's 20 passkeys) as `{"message": …}` with
    /// the error's status and headers, for `passkeys.js` to say on the page (Login's, Home's and
    /// Confirm it's you's options alike).
    static func refusalAsJSON(_ pages: Pages, _ answer: () async throws -> Response) async throws -> Response {
        do {
            return try await answer()
        } catch let error as any AnsweringError where error is PasskeyError || error is SignInError {
            var response = try Response.json(
                ["message": error.wording.map { pages.words($0) } ?? error.message], status: error.status)
            response.headers.append(contentsOf: error.headers)
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }

    /// The browser's new passkey: "Your devices" with it listed, or with the reason it was not
    /// added.
    @Sendable func create(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let session = context.app.sessionToken else { throw Redirect.toLogin }
        let credential = Data((try request.formData()["credential"] ?? "").utf8)
        let browser = UserAgentDescription.describe(
            request.headers[.userAgent], pages.in(context.language).words)
        let added: PasskeyRecord
        do {
            added = try await passkeys.register(
                credential, for: context.user, session: session, browser: String(browser.prefix(64)),
                userAgent: request.headers[.userAgent], client: request.client?.group)
        } catch let error as PasskeyError {
            return try await devices.page(request, context, error: error)
        }
        var response = Response.redirect(to: "/devices")
        response.setCookie(cookies.here(added.id))
        response.setCookie(cookies.notice(.added))
        response.setCookie(cookies.offerCleared)
        return response
    }

    /// "Not now": Home offers no passkey again.
    @Sendable func dismissOffer(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try await passkeys.dismissOffer(for: context.user)
        var response = Response.redirect(to: "/home")
        response.setCookie(cookies.offerCleared)
        return response
    }

    @Sendable func rename(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let name = try request.formData()["name"] ?? ""
        do {
            try await passkeys.rename(try Self.id(context), of: context.user, to: String(name.prefix(256)))
        } catch let error as PasskeyError {
            return try await devices.page(request, context, error: error)
        }
        var response = Response.redirect(to: "/devices")
        response.setCookie(cookies.notice(.renamed))
        return response
    }

    /// "Remove the passkey “My phone”?": asked first, with how to delete it from the phone or
    /// password manager too (removed here, it is only refused). Another person's id is 404.
    @Sendable func confirmRemoval(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let id = try Self.id(context)
        guard let passkey = try await passkeys.passkeys(of: context.user).passkeys.first(where: { $0.id == id })
        else {
            // Back onto the ask after the removal (or another person's id): the list, which
            // shows what there is, says nothing about whose ids exist.
            return .redirect(to: "/devices")
        }
        return try pages.in(context.language).passkeyRemoval(csrf: context.csrfToken, passkey: passkey)
    }

    /// Removes the passkey; every session and remembered device stays as it is.
    @Sendable func remove(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        do {
            try await passkeys.remove(
                try Self.id(context), of: context.user, userAgent: request.headers[.userAgent],
                client: request.client?.group)
        } catch let error as PasskeyError {
            return try await devices.page(request, try context.signedIn, error: error)
        }
        var response = Response.redirect(to: "/devices")
        response.setCookie(cookies.notice(.removed))
        return response
    }

    private static func id(_ context: some AppChildContext) throws(PasskeyError) -> Int64 {
        guard let id = context.parameters["id"].flatMap(Int64.init) else { throw .noSuchPasskey }
        return id
    }

    /// Options as JSON, never cached (they hold a challenge).
    static func json(_ value: some Encodable) throws -> Response {
        var response = try Response.json(value)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
