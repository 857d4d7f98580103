import AuthCore
import DeliveryCore
import Foundation
import HTTPLite
import Wording

/// "Confirm it's you" (`/confirm?next=…`): a fresh proof for something sensitive, without
/// signing out. The proof is a new sign-in to the person's own number by a code, made beside
/// the signed-in session (``PendingCodeCookie``); when the code is right the new session takes the
/// old one's place (the old one ends), and the person goes back to `next`, a path on this site.
/// The code is counted by every sending limit and budget, like any other.
struct ConfirmController: Sendable {
    let signIn: SignInService
    let pages: Pages
    let cookie: SessionCookie
    let pending: PendingCodeCookie
    /// Passkeys, when on: one of the person's own passkeys is a proof too.
    var passkeys: PasskeyService? = nil
    var passkeyCookies = PasskeyCookies(secure: false)
    static let passkeyPath = "/confirm/passkey"

    func register(signedIn: RouteScope<SignedInContext>) {
        signedIn.get("/confirm", use: show)
        signedIn.post("/confirm/send", use: send)
        signedIn.post("/confirm/call", use: call)
        signedIn.get("/confirm/code", use: showCode)
        signedIn.post("/confirm/code", use: check)
        if passkeys != nil {
            signedIn.post("/confirm/passkey/options", use: passkeyOptions)
            signedIn.post(Self.passkeyPath, use: passkeyProof)
        }
        // Reload or Back on a form's answer asks its address with GET: the step as it stands.
        for address in ["/confirm/send", "/confirm/call", Self.passkeyPath] {
            signedIn.get(address) { request, _ in
                .redirect(to: "/confirm/code?" + URLEncodedForm([("next", Self.next(request))]).encoded)
            }
        }
    }

    /// Where to go afterwards: the `next` of the query or the form, if it is a path on this site.
    static func next(_ request: Request, form: URLEncodedForm? = nil) -> String {
        Confirmation.safeNext(form?["next"] ?? request.query["next"])
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try pages.in(context.language).confirm(
            csrf: context.csrfToken, phone: context.user.phone, next: Self.next(request), entering: false,
            passkeys: try await hasPasskeys(context.user))
    }

    /// Whether the person has a passkey to confirm with (the page then offers it).
    private func hasPasskeys(_ user: User) async throws -> Bool {
        guard let passkeys else { return false }
        return try await !passkeys.passkeys(of: user).passkeys.isEmpty
    }

    /// Options for `navigator.credentials.get()`, with a challenge bound to this browser
    /// (its cookie lives on `/confirm/passkey` only).
    @Sendable func passkeyOptions(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let passkeys else { throw Redirect.toHome }
        return try await PasskeyController.refusalAsJSON(pages.in(context.language)) {
            let challenge = try await passkeys.signInOptions(
                client: request.client?.group, token: passkeyCookies.challengeToken(in: request))
            var response = try PasskeyController.json(challenge.options)
            response.setCookie(passkeyCookies.challenge(challenge.token, path: Self.passkeyPath))
            return response
        }
    }

    /// A proof for this person: their new session takes the old one's place (which ends), and
    /// they go back to `next`; `spent` is the cookie of the step that made it, now done with.
    private func takeOver(
        _ proved: SignInService.SignedIn, _ context: SignedInContext, next: String, spent: Cookie
    ) async throws -> Response {
        if let old = context.app.sessionToken { try await signIn.signOut(session: old) }
        var response = Response.redirect(to: next)
        response.setCookie(cookie.signedIn(proved.session))
        response.setCookie(spent)
        return response
    }

    /// The browser's answer: one of this person's own passkeys is a proof (a new session takes
    /// the old one's place, as after a code); another account's passkey proves nothing here,
    /// and the session it would have made ends at once.
    @Sendable func passkeyProof(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let passkeys else { throw Redirect.toHome }
        let form = try request.formData()
        let next = Self.next(request, form: form)
        let credential = Data((form["credential"] ?? "").utf8)
        let refusal: any AnsweringError
        do {
            guard let token = passkeyCookies.challengeToken(in: request) else { throw PasskeyError.challengeExpired }
            let proved = try await passkeys.signIn(
                credential, token: token, client: request.client?.group, userAgent: request.headers[.userAgent])
            if proved.user.id == context.user.id {
                return try await takeOver(
                    proved, context, next: next, spent: passkeyCookies.challengeCleared(path: Self.passkeyPath))
            }
            try await signIn.signOut(session: proved.session)
            refusal = PasskeyError.notYours
        } catch let error as any AnsweringError where error is PasskeyError || error is SignInError {
            refusal = error
        }
        // The console asks for a passkey only: it is asked again there, never by text.
        if next == "/admin" || next.hasPrefix("/admin/") || next.hasPrefix("/admin?") {
            var response = Response.redirect(
                to: "/admin/proof?" + URLEncodedForm([("next", next), ("failed", "1")]).encoded)
            response.setCookie(passkeyCookies.challengeCleared(path: Self.passkeyPath))
            return response
        }
        var page = try pages.in(context.language).confirm(
            csrf: context.csrfToken, phone: context.user.phone, next: next, entering: false,
            passkeys: try await hasPasskeys(context.user), refusal: refusal)
        page.setCookie(passkeyCookies.challengeCleared(path: Self.passkeyPath))
        return page
    }

    /// "Text me a code" (and "Text me a new code"): a code to the person's own number.
    @Sendable func send(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try await newCode(by: .sms, request, context)
    }

    /// "Call me with the code instead": the code read out on a call.
    @Sendable func call(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try await newCode(by: .voice, request, context)
    }

    private func newCode(by channel: DeliveryChannel, _ request: Request, _ context: SignedInContext)
        async throws -> Response
    {
        let form = try request.formData()
        let next = Self.next(request, form: form)
        let phone = context.user.phone
        do {
            let started: SessionToken
            if let token = pending.token(in: request, for: context.user),
                try await signIn.state(of: token) == .pending(phone)
            {
                started = try await signIn.resendCode(
                    session: token, client: request.client?.group, userAgent: request.headers[.userAgent],
                    channel: channel, language: context.language
                ).session
            } else {
                started = try await signIn.requestCode(
                    phoneInput: phone.e164, session: nil, client: request.client?.group,
                    userAgent: request.headers[.userAgent], language: context.language
                ).session
            }
            var response = Response.redirect(
                to: "/confirm/code?" + URLEncodedForm([("next", next), ("sent", channel.rawValue)]).encoded)
            response.setCookie(pending.pending(started, for: context.user))
            return response
        } catch let error as SignInError {
            return try pages.in(context.language).confirm(
                csrf: context.csrfToken, phone: phone, next: next,
                entering: pending.token(in: request, for: context.user) != nil,
                offersCall: signIn.offersCalls(to: phone), error: error)
        }
    }

    @Sendable func showCode(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let next = Self.next(request)
        guard pending.token(in: request, for: context.user) != nil else {
            return Redirect.toConfirm(next: next).response
        }
        let words = pages.in(context.language).words
        let phone = context.user.phone.nationalFormat
        let notice: String? =
            switch request.query["sent"] {
            case "sms": words("confirm.sent", ["phone": phone])
            case "voice": words("confirm.called", ["phone": phone])
            default: nil
            }
        return try pages.in(context.language).confirm(
            csrf: context.csrfToken, phone: context.user.phone, next: next, entering: true,
            offersCall: signIn.offersCalls(to: context.user.phone), notice: notice)
    }

    /// The code: right, and this browser's session is replaced by the new, proved one; wrong,
    /// the page again with why (and the tries left).
    @Sendable func check(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let form = try request.formData()
        let next = Self.next(request, form: form)
        let phone = context.user.phone
        guard let token = pending.token(in: request, for: context.user) else {
            return Redirect.toConfirm(next: next).response
        }
        let code = String((form["code"] ?? "").filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
        do {
            let proved = try await signIn.verify(
                session: token, pendingFor: phone, codeInput: code, client: request.client?.group,
                userAgent: request.headers[.userAgent], signedInAs: context.user.id)
            // The code went to this person's own number, so the new session is theirs; checked
            // anyway, so no path can swap one person's session for another's.
            guard proved.user.id == context.user.id else {
                try await signIn.signOut(session: proved.session)
                throw Redirect.toLogin
            }
            return try await takeOver(proved, context, next: next, spent: pending.cleared)
        } catch SignInError.noPendingSignIn {
            var response = Redirect.toConfirm(next: next).response
            response.setCookie(pending.cleared)
            return response
        } catch let error as SignInError {
            let status = try await signIn.codeStatus(for: phone)
            return try pages.in(context.language).confirm(
                csrf: context.csrfToken, phone: phone, next: next, entering: true,
                offersCall: signIn.offersCalls(to: phone), error: error,
                triesLeft: error == .incorrectCode ? status.triesLeft : nil)
        }
    }
}
