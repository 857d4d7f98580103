import AccountCore
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import HTTPLite
import Wording

/// Helping someone whose number went to someone else, or who lost it: an account detached from
/// a number (its new holder started afresh), or a dormant one still on it, moves to a number the
/// person proves with a code, as "Lost your phone or number?" does. The code goes to the new
/// number; the person reads it to the operator, who types it with a reason. Every sign-in of the
/// account ends; the account is on the new number.
struct ConsoleAttachController: Sendable {
    let signIn: SignInService
    let accounts: any AccountStore
    let pages: Pages
    /// The code in progress, on `/admin/people/attach` only, for that account.
    let pending: PendingCodeCookie
    let clock: @Sendable () -> Date

    func register(operators: RouteScope<OperatorContext>, acting: RouteScope<ActingOperatorContext>) {
        acting.post("/admin/people/attach", use: sendCode)
        operators.get("/admin/people/attach/code", use: showCode)
        acting.post("/admin/people/attach/code", use: checkCode)
        operators.get("/admin/people/attach") { request, _ in
            .redirect(to: ConsoleController.personPage(request.query["phone"]))
        }
    }

    /// The account `?account=` when it may move: detached from the number `?phone=`, or on it and
    /// dormant. Its number now (nil: detached).
    private func movable(_ request: Request) async throws -> (account: Int64, from: PhoneNumber?, old: PhoneNumber)? {
        guard let old = try? PhoneNumber(parsing: request.query["phone"] ?? ""),
            let account = request.query["account"].flatMap(Int64.init),
            let found = try await signIn.accountNumber(of: account)
        else { return nil }
        if found.phone == nil, found.detachedFrom == old { return (account, nil, old) }
        guard found.phone == old, let proved = try await signIn.operatorActions.numberProvedAt(old),
            PersonStatus.isDormant(
                numberProvedAt: proved, now: clock().timeIntervalSince1970, dormantAfter: signIn.policy.dormantAfter)
        else { return nil }
        return (account, old, old)
    }

    private func query(_ moving: (account: Int64, from: PhoneNumber?, old: PhoneNumber)) -> String {
        URLEncodedForm([("phone", moving.old.nationalFormat), ("account", String(moving.account))]).encoded
    }

    /// The new number, and a code to it (every sending limit and budget counts it).
    @Sendable func sendCode(_ request: Request, _ context: ActingOperatorContext) async throws -> Response {
        guard let moving = try await movable(request) else {
            throw StatusError(.conflict, Phrase("console.error.gone"), message: "That account cannot move now.")
        }
        let form = try request.formData()
        let typed = String((form["new_phone"] ?? "").prefix(64))
        do {
            let phone = try signIn.phone(typed)
            // A number that cannot take the account is refused before any text goes to it.
            if phone == moving.old || moving.from == phone { throw NumberChangeError.sameNumber }
            if try await accounts.account(holding: phone.e164) != nil { throw NumberChangeError.numberHasAccount }
            // Sent again (Back, Reload, a double tap): the code already out is the one to type.
            let started = try await signIn.requestCode(
                phoneInput: phone.e164, session: pending.token(in: request, forAccount: moving.account),
                client: request.client?.group, language: context.language, movesAccount: true)
            var response = Response.redirect(to: "/admin/people/attach/code?" + query(moving))
            response.setCookie(pending.pending(started.session, forAccount: moving.account))
            return response
        } catch let error as any AnsweringError where error is SignInError || error is NumberChangeError {
            return try pages.in(context.language).consoleAttach(
                csrf: context.csrfToken, query: query(moving), old: moving.old, newPhone: nil, typed: typed, error: error)
        }
    }

    @Sendable func showCode(_ request: Request, _ context: OperatorContext) async throws -> Response {
        guard let moving = try await movable(request),
            let (_, phone) = try await NewNumberCode(signIn: signIn, pending: pending).sent(request, forAccount: moving.account)
        else { return .redirect(to: ConsoleController.personPage(request.query["phone"])) }
        return try pages.in(context.language).consoleAttach(
            csrf: context.csrfToken, query: query(moving), old: moving.old, newPhone: phone)
    }

    /// The code the person read out, and why: right, and the account is on the new number.
    @Sendable func checkCode(_ request: Request, _ context: ActingOperatorContext) async throws -> Response {
        guard let moving = try await movable(request),
            let (token, phone) = try await NewNumberCode(signIn: signIn, pending: pending).sent(request, forAccount: moving.account)
        else { return .redirect(to: ConsoleController.personPage(request.query["phone"])) }
        let form = try request.formData()
        let words = pages.in(context.language)
        let reason: ActionReason
        do {
            reason = try ActionReason(form["reason"])
        } catch {
            return try words.consoleAttach(
                csrf: context.csrfToken, query: query(moving), old: moving.old, newPhone: phone,
                error: ConsoleRefusal.reason(error))
        }
        let code = String((form["code"] ?? "").filter { !$0.isWhitespace && $0 != "-" }.prefix(64))
        do {
            let moved = try await signIn.recoverAccount(
                moving.account, from: moving.from, to: phone, session: token, codeInput: code,
                client: request.client?.group, language: context.language)
            // The recovery's new session is the person's to begin, not the operator's browser's.
            try await signIn.signOut(session: moved.session)
            try await signIn.operatorActions.record(
                OperatorAction.attachAccount.event(
                    user: moving.account, by: context.actor, reason: reason, at: clock().timeIntervalSince1970))
            var response = Response.redirect(
                to: "/admin/people?" + URLEncodedForm([("phone", phone.nationalFormat), ("done", "attach-account")]).encoded)
            response.setCookie(pending.cleared)
            return response
        } catch let error as NumberChangeError {
            var response = try words.consoleAttach(
                csrf: context.csrfToken, query: query(moving), old: moving.old, newPhone: nil, error: error)
            response.setCookie(pending.cleared)
            return response
        } catch let error as SignInError {
            return try words.consoleAttach(
                csrf: context.csrfToken, query: query(moving), old: moving.old, newPhone: phone, error: error)
        }
    }
}
