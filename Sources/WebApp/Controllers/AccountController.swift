import AccountCore
import AuthCore
import Encodings
import Foundation
import HTTPLite
import WalletCore
import Wording

/// "Your account" (`/account`, linked from Home and Your devices): the number and since when, how
/// the person signs in, and what only a fresh proof opens (the `confirmed` group): change the
/// number, download the data, delete the account.
///
/// Changing the number is a code to the new number, kept beside the signed-in session (a
/// ``PendingCodeCookie`` on `/account/phone`); the right code moves the account in the
/// transaction that checks it (``AuthCore/SignInService/moveAccount(of:to:session:holder:codeInput:client:language:userAgent:)``).
struct AccountController: Sendable {
    let signIn: SignInService
    let store: any AccountStore
    let rules: AccountRules
    let recoveryCodes: RecoveryCodes
    let pages: Pages
    let cookies: SignOutCookies
    let pending: PendingCodeCookie
    /// Whether the OpenID Connect provider is on (the page counts connected apps).
    let connectedApps: Bool
    let clock: @Sendable () -> Date

    func register(signedIn: RouteScope<SignedInContext>, confirmed: RouteScope<ConfirmedContext>) {
        signedIn.get("/account", use: show)
        // Every step of a change of number asks for a fresh proof: one that went stale while the
        // code was on its way is asked for again before the code is taken.
        confirmed.get("/account/phone", use: showChange)
        confirmed.post("/account/phone", use: sendCode)
        confirmed.get("/account/phone/code", use: showCode)
        confirmed.post("/account/phone/code", use: checkCode)
        confirmed.post("/account/phone/resend", use: resend)
        confirmed.get("/account/recovery", use: showRecovery)
        confirmed.post("/account/recovery", use: makeRecovery)
        confirmed.get("/account/download", use: showDownload)
        confirmed.get("/account/data", use: download)
        confirmed.get("/account/delete", use: showDelete)
        confirmed.post("/account/delete", use: delete)
        // Reload or Back on a form's answer asks its address with GET: the step as it stands.
        signedIn.get("/account/phone/resend") { _, _ in .redirect(to: "/account/phone/code") }
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let changed = request.query["changed"]
        return try await page(
            context.user, context.language, justChanged: changed == "phone" || changed == "attached",
            attached: changed == "attached")
    }

    /// The page; `justChanged`: says the number is new, if it changed in the last 10 minutes (a
    /// link cannot make it say so of an old number).
    /// `attached`: the account was detached from its number and has a new one (no text went to
    /// the old number, which is someone else's).
    private func page(
        _ user: User, _ language: Language, justChanged: Bool = false, attached: Bool = false,
        error: (any AnsweringError)? = nil
    ) async throws -> Response {
        let now = clock().timeIntervalSince1970
        let summary = try await summary(of: user)
        let changedNow = justChanged && summary.phoneSince != summary.createdAt && now - summary.phoneSince < 600
        let notice =
            changedNow
            ? pages.in(language).words(
                attached ? "yourAccount.attached" : "yourAccount.changed", ["phone": user.phone.nationalFormat]) : nil
        return try pages.in(language).yourAccount(
            summary, phone: user.phone, calls: signIn.offersCalls(to: user.phone),
            connectedApps: connectedApps, notice: notice, error: error)
    }

    /// The account page's facts as of now; signed out when the account is gone.
    private func summary(of user: User) async throws -> AccountSummary {
        guard let summary = try await store.summary(user: user.id, now: clock().timeIntervalSince1970) else {
            throw Redirect.toLogin
        }
        return summary
    }

    // MARK: Change your number

    @Sendable func showChange(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        try pages.in(context.language).changeNumber(csrf: context.csrfToken, phone: context.user.phone)
    }

    /// The new number: checked, then a code to it (every sending limit and budget counts it, as
    /// any code). Whether the number has an account is not said until its code is right.
    @Sendable func sendCode(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let form = try request.formData()
        let typed = String((form["phone"] ?? "").prefix(64))
        let words = pages.in(context.language)
        do {
            let phone = try signIn.phone(typed)
            guard phone != context.user.phone else { throw NumberChangeError.sameNumber }
            let started = try await signIn.requestCode(
                phoneInput: phone.e164, session: nil, client: request.client?.group,
                userAgent: request.headers[.userAgent], language: context.language,
                movesAccount: true)
            var response = Response.redirect(to: "/account/phone/code?sent=" + (started.sent ? "1" : "0"))
            response.setCookie(pending.pending(started.session, for: context.user))
            return response
        } catch let error as any AnsweringError where error is SignInError || error is NumberChangeError {
            return try words.changeNumber(
                csrf: context.csrfToken, phone: context.user.phone, typed: typed, error: error)
        }
    }

    /// The number this person's change sent its code to, while the code can still be typed.
    private func newNumber(_ request: Request, _ context: ConfirmedContext) async throws -> (SessionToken, PhoneNumber)?
    {
        try await NewNumberCode(signIn: signIn, pending: pending).sent(request, for: context.user)
    }

    @Sendable func showCode(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        guard let (_, phone) = try await newNumber(request, context) else { return .redirect(to: "/account/phone") }
        let words = pages.in(context.language)
        return try words.changeNumber(
            csrf: context.csrfToken, phone: context.user.phone, newPhone: phone,
            notice: NewNumberCode.notice(request, to: phone, in: words))
    }

    @Sendable func resend(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        guard let (token, phone) = try await newNumber(request, context) else { return .redirect(to: "/account/phone") }
        do {
            _ = try await signIn.resendCode(
                session: token, client: request.client?.group, userAgent: request.headers[.userAgent],
                language: context.language, movesAccount: true)
            return .redirect(to: "/account/phone/code?sent=1")
        } catch let error as SignInError {
            return try pages.in(context.language).changeNumber(
                csrf: context.csrfToken, phone: context.user.phone, newPhone: phone, error: error)
        }
    }

    /// The code to the new number: right, and the account is on it (the remembered number on
    /// this browser follows); wrong, the page again with why.
    @Sendable func checkCode(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        guard let (token, phone) = try await newNumber(request, context) else { return .redirect(to: "/account/phone") }
        let form = try request.formData()
        let code = String((form["code"] ?? "").filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
        let words = pages.in(context.language)
        // A page of an earlier change (another tab) names another number: its code is not tried
        // against this one's; the page as it stands now says where the code went.
        if let shown = form["phone"], shown != phone.e164 {
            return try words.changeNumber(
                csrf: context.csrfToken, phone: context.user.phone, newPhone: phone,
                notice: words.words("yourAccount.phone.sent", ["phone": phone.nationalFormat]))
        }
        do {
            let moved = try await signIn.moveAccount(
                of: context.user, to: phone, session: token, codeInput: code, client: request.client?.group,
                language: context.language, userAgent: request.headers[.userAgent])
            var response = Response.redirect(to: "/account?changed=phone")
            response.setCookie(pending.cleared)
            if cookies.rememberedPhone.phone(in: request) == context.user.phone {
                response.setCookie(cookies.rememberedPhone.remember(moved.phone))
            }
            return response
        } catch let error as NumberChangeError {
            var response: Response
            if error == .numberHasAccount {
                response = try words.changeNumber(
                    csrf: context.csrfToken, phone: context.user.phone, typed: phone.nationalFormat, error: error)
            } else {
                response = try await page(context.user, context.language, error: error)
            }
            response.setCookie(pending.cleared)
            return response
        } catch let error as SignInError {
            let status = try await signIn.codeStatus(for: phone)
            return try words.changeNumber(
                csrf: context.csrfToken, phone: context.user.phone, newPhone: phone, error: error,
                triesLeft: error == .incorrectCode ? status.triesLeft : nil)
        }
    }

    // MARK: Recovery codes

    @Sendable func showRecovery(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let summary = try await summary(of: context.user)
        return try pages.in(context.language).recoveryCodes(
            csrf: context.csrfToken, phone: context.user.phone, left: summary.recoveryCodesLeft,
            replaces: Self.setName(summary))
    }

    /// Names the set of codes a form replaces (when it was made, or "none"): Reload of the page
    /// that showed new codes posts its form again (Safari, or any browser without JavaScript),
    /// and must not silently end the codes just saved.
    static func setName(_ summary: AccountSummary) -> String {
        summary.recoveryCodesMadeAt.map { String(Int64(($0 * 1000).rounded())) } ?? "none"
    }

    /// A new set of ten, replacing the old one; shown this once (only their digests are kept). A
    /// form whose set was replaced since it was shown makes nothing: the page counts the codes.
    @Sendable func makeRecovery(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let summary = try await summary(of: context.user)
        if let replaces = try request.formData()["replaces"], replaces != Self.setName(summary) {
            return try pages.in(context.language).recoveryCodes(
                csrf: context.csrfToken, phone: context.user.phone, left: summary.recoveryCodesLeft,
                replaces: Self.setName(summary), alreadyMade: true)
        }
        let made = recoveryCodes.generate(using: secureRandomBytes)
        try await store.replaceRecoveryCodes(
            user: context.user.id, digests: made.digests, at: clock().timeIntervalSince1970)
        return try pages.in(context.language).recoveryCodes(
            csrf: context.csrfToken, phone: context.user.phone, left: made.codes.count, codes: made.codes,
            replaced: summary.recoveryCodesMadeAt != nil)
    }

    // MARK: Download and delete

    /// "Download your data": what the file holds, and the link to it (the file itself needs the
    /// same fresh proof, which this page's own address already asked for).
    @Sendable func showDownload(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        try pages.in(context.language).downloadData()
    }

    /// Everything kept about the person, as one JSON file to save.
    @Sendable func download(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        guard let export = try await store.export(user: context.user.id, now: clock().timeIntervalSince1970) else {
            throw Redirect.toLogin
        }
        var response = Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(data: try AccountExport.encoder.encode(export)))
        response.headers[.contentDisposition] = #"attachment; filename="phone-login-data.json""#
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func showDelete(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let summary = try await summary(of: context.user)
        return try pages.in(context.language).deleteAccount(
            csrf: context.csrfToken, phone: context.user.phone,
            moneyHeld: summary.moneyHeldCents > 0 ? Money(cents: summary.moneyHeldCents) : nil)
    }

    /// Deletes the account in one transaction (refused while money is held), then this browser
    /// forgets it too: Login says it is done.
    @Sendable func delete(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        let rules = self.rules
        switch try await store.delete(
            user: context.user.id, at: clock().timeIntervalSince1970, decide: { rules.deletion($0) })
        {
        case .moneyHeld(let cents):
            return try pages.in(context.language).deleteAccount(
                csrf: context.csrfToken, phone: context.user.phone, moneyHeld: Money(cents: cents), refused: true)
        case .delete, .noAccount:
            var response = Response.redirect(to: "/login")
            for cookie in cookies.all { response.setCookie(cookie) }
            response.setCookie(LoginNotice.deleted.cookie(secure: cookies.secure))
            return response
        }
    }
}

/// The cookies that tie this browser to an account, and how to drop them all (after deleting
/// the account): the session, the remembered device and the number Login fills in.
struct SignOutCookies: Sendable {
    let session: SessionCookie
    let device: DeviceCookie
    let rememberedPhone: RememberedPhoneCookie
    var secure: Bool { session.secure }

    var all: [Cookie] { [session.expired(), device.forget(), rememberedPhone.forget()] }
}
