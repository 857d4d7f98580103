import AuthCore
import ConsoleCore
import Foundation
import HTTPLite

/// The console's door, before its routes: to anyone who is not a listed operator (signed out, or
/// signed in as someone else) every `/admin` address is the router's ordinary 404, whatever the
/// method, so the console's existence shows nowhere. For an operator it decides
/// (``ConsoleCore/ConsoleAccess``) whether the console is open and whether they may act, and
/// keeps the idle cookie fresh on every answer of an open console.
struct OperatorGate: Middleware {
    typealias Context = AppContext
    let operators: Operators
    let signIn: SignInService
    let passkeys: PasskeyService?
    let cookie: ConsoleCookie
    let clock: @Sendable () -> Date

    /// What every visitor who is not an operator gets: the router's own 404.
    static var unknownPage: StatusError {
        StatusError(.notFound, .noPage, message: "There is no page at this address.")
    }

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        guard let user = context.user, operators.contains(user.phone.e164), let token = context.sessionToken else {
            throw Self.unknownPage
        }
        let now = clock()
        let record = try await context.sessionRecord(signIn)
        let hasPasskey = try await hasLivePasskey(user, context)
        let access = ConsoleAccess.decide(
            operators: operators, session: record, hasPasskey: hasPasskey,
            lastSeen: cookie.lastSeen(in: request, session: token), now: now)
        guard access != .unknownPage else { throw Self.unknownPage }
        var context = context
        context.console = access
        context.consoleNext = Self.next(request)
        var response = try await next(request, context)
        if case .open = access { response.setCookie(cookie.seen(token, at: now)) }
        return response
    }

    /// Whether the operator has a passkey that is not turned off: read with the session (the
    /// console's ``SessionMiddleware``), or now. None opens the console where passkeys are off.
    private func hasLivePasskey(_ user: User, _ context: AppContext) async throws -> Bool {
        guard let passkeys else { return false }
        if let read = context.hasLivePasskey { return read }
        return try await passkeys.passkeys(of: user).passkeys.contains { $0.flaggedAt == nil }
    }

    /// Where the passkey proof returns: this page for a GET; for an action, the person's page
    /// it was taken on (its form's address carries the number), or the console's first page.
    static func next(_ request: Request) -> String {
        if request.method == .get {
            return Confirmation.safeNext(request.path + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery))
        }
        if request.path.hasPrefix("/admin/people/"), let phone = request.query["phone"] {
            return "/admin/people?" + URLEncodedForm([("phone", phone)]).encoded
        }
        return "/admin"
    }
}
