import AccountCore
import AuthCore
import Foundation
import HTTPLite
import Wording

/// "Lost your phone or number?" (`/recover`, linked from Login and Verify's help page), for
/// someone signed out:
/// 1. the old number and a recovery code prove the account (the code is spent; wrong tries are
///    bounded per number and per client in the database), and a ``RecoveryCookie`` keeps the
///    proof;
/// 2. a new number gets a code, as "Change your number" sends one (a ``PendingCodeCookie`` on
///    `/recover` holds its pending session);
/// 3. the right code moves the account there, ends every session and remembered phone it had
///    (the lost phone's), signs this browser in and texts the old number that it happened
///    (``AuthCore/SignInService/recoverAccount(_:from:to:session:holder:codeInput:client:language:userAgent:)``).
///
/// A passkey of the account is the other proof: it signs in on Login, and Your account changes
/// the number from there.
struct RecoverController: Sendable {
    let signIn: SignInService
    let recoveryCodes: RecoveryCodes
    let pages: Pages
    let session: SessionCookie
    let proof: RecoveryCookie
    let pending: PendingCodeCookie
    /// The number Login fills in: the new one after a recovery, not the lost one.
    let rememberedPhone: RememberedPhoneCookie

    func register(signedOut: RouteScope<SignedOutContext>) {
        signedOut.get("/recover", use: showStart)
        signedOut.post("/recover", use: prove)
        signedOut.get("/recover/phone", use: showNewNumber)
        signedOut.post("/recover/phone", use: sendCode)
        signedOut.get("/recover/code", use: showCode)
        signedOut.post("/recover/code", use: checkCode)
        signedOut.post("/recover/resend", use: resend)
        // Reload or Back on a form's answer asks its address with GET: the step as it stands.
        signedOut.get("/recover/resend") { _, _ in .redirect(to: "/recover/code") }
    }

    @Sendable func showStart(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        try pages.in(context.language).recover(.prove(typed: ""), csrf: context.csrfToken)
    }

    /// Step 1: the old number and a recovery code. A wrong number and a wrong code get the same
    /// answer; a slip that cannot be a code costs no try.
    @Sendable func prove(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        let form = try request.formData()
        let typed = String((form["phone"] ?? "").prefix(64))
        let code = String((form["code"] ?? "").prefix(64))
        do {
            let proved = try await signIn.proveRecovery(
                phoneInput: typed, codeDigest: recoveryCodes.digest(of: code), client: request.client?.group)
            let made = proof.proved(proved)
            var response = Response.redirect(to: "/recover/phone?left=\(proved.codesLeft)")
            response.setCookie(made.cookie)
            response.setCookie(pending.cleared)
            return response
        } catch let error as any AnsweringError where error is SignInError || error is RecoveryError {
            return try pages.in(context.language).recover(.prove(typed: typed), csrf: context.csrfToken, error: error)
        }
    }

    /// The account this browser proved, as it stands now; nil (start again) when there is no
    /// proof, it is too old, or the account is gone.
    private func proved(_ request: Request) async throws -> RecoveringAccount? {
        try await proof.account(signed: request.cookie(proof.name), as: signIn)
    }

    /// Back to the start, saying why, and dropping what this browser kept of the recovery.
    private func startAgain(_ context: SignedOutContext, error: RecoveryError = .proofExpired) throws -> Response {
        var response = try pages.in(context.language).recover(.prove(typed: ""), csrf: context.csrfToken, error: error)
        response.setCookie(proof.cleared)
        response.setCookie(pending.cleared)
        return response
    }

    @Sendable func showNewNumber(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        guard let user = try await proved(request) else { return .redirect(to: "/recover") }
        let words = pages.in(context.language)
        let left = request.query["left"].flatMap(Int.init).flatMap { (0...RecoveryCodes.count).contains($0) ? $0 : nil }
        let notice = left.map { left in
            left == 0
                ? words.words("recover.proved.noneLeft")
                : words.words.plural("recover.proved.left", count: left)
        }
        return try words.recover(.newNumber(account: user.phone, typed: ""), csrf: context.csrfToken, notice: notice)
    }

    /// Step 2: the new number, and a code to it (every sending limit and budget counts it).
    @Sendable func sendCode(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        guard let user = try await proved(request) else { return try startAgain(context) }
        let form = try request.formData()
        let typed = String((form["phone"] ?? "").prefix(64))
        let words = pages.in(context.language)
        do {
            let phone = try signIn.phone(typed)
            try user.check(phone)
            let started = try await signIn.requestCode(
                phoneInput: phone.e164, session: nil, client: request.client?.group,
                userAgent: request.headers[.userAgent], language: context.language,
                movesAccount: true)
            var response = Response.redirect(to: "/recover/code?sent=" + (started.sent ? "1" : "0"))
            response.setCookie(pending.pending(started.session, forAccount: user.id))
            return response
        } catch let error as any AnsweringError where error is SignInError || error is NumberChangeError {
            return try words.recover(
                .newNumber(account: user.phone, typed: typed), csrf: context.csrfToken, error: error)
        }
    }

    /// The number this recovery sent its code to, while the code can still be typed.
    private func newNumber(_ request: Request, for user: RecoveringAccount) async throws -> (SessionToken, PhoneNumber)?
    {
        try await NewNumberCode(signIn: signIn, pending: pending).sent(request, forAccount: user.id)
    }

    @Sendable func showCode(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        guard let user = try await proved(request) else { return .redirect(to: "/recover") }
        guard let (_, phone) = try await newNumber(request, for: user) else { return .redirect(to: "/recover/phone") }
        let words = pages.in(context.language)
        return try words.recover(
            .code(newPhone: phone), csrf: context.csrfToken, notice: NewNumberCode.notice(request, to: phone, in: words)
        )
    }

    @Sendable func resend(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        guard let user = try await proved(request) else { return try startAgain(context) }
        guard let (token, phone) = try await newNumber(request, for: user) else {
            return .redirect(to: "/recover/phone")
        }
        do {
            _ = try await signIn.resendCode(
                session: token, client: request.client?.group, userAgent: request.headers[.userAgent],
                language: context.language, movesAccount: true)
            return .redirect(to: "/recover/code?sent=1")
        } catch let error as SignInError {
            return try pages.in(context.language).recover(.code(newPhone: phone), csrf: context.csrfToken, error: error)
        }
    }

    /// Step 3: the code to the new number. Right, and the account is on it, everywhere else is
    /// signed out, and this browser is signed in: Your account says the number is new.
    @Sendable func checkCode(_ request: Request, _ context: SignedOutContext) async throws -> Response {
        guard let user = try await proved(request) else { return try startAgain(context) }
        guard let (token, phone) = try await newNumber(request, for: user) else {
            return .redirect(to: "/recover/phone")
        }
        let form = try request.formData()
        let code = String((form["code"] ?? "").filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
        let words = pages.in(context.language)
        // A page of an earlier try (another tab) names another number: its code is not tried here.
        if let shown = form["phone"], shown != phone.e164 {
            return try words.recover(
                .code(newPhone: phone), csrf: context.csrfToken,
                notice: words.words("yourAccount.phone.sent", ["phone": phone.nationalFormat]))
        }
        do {
            let signedIn = try await signIn.recoverAccount(
                user.id, from: user.phone, to: phone, session: token, codeInput: code,
                client: request.client?.group, language: context.language, userAgent: request.headers[.userAgent])
            // A detached account's old number is someone else's: it was not texted, and the page
            // must not say it was.
            var response = Response.redirect(
                to: user.phone == nil ? "/account?changed=attached" : "/account?changed=phone")
            response.setCookie(session.signedIn(signedIn.session))
            response.setCookie(rememberedPhone.remember(phone))
            response.setCookie(proof.cleared)
            response.setCookie(pending.cleared)
            return response
        } catch NumberChangeError.numberHasAccount {
            // The proof stands: another number may be given.
            var response = try words.recover(
                .newNumber(account: user.phone, typed: phone.nationalFormat), csrf: context.csrfToken,
                error: NumberChangeError.numberHasAccount)
            response.setCookie(pending.cleared)
            return response
        } catch is NumberChangeError {
            return try startAgain(context)
        } catch let error as SignInError {
            let status = try await signIn.codeStatus(for: phone)
            return try words.recover(
                .code(newPhone: phone), csrf: context.csrfToken, error: error,
                triesLeft: error == .incorrectCode ? status.triesLeft : nil)
        }
    }
}
