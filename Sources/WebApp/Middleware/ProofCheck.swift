import AuthCore
import Foundation
import HTTPLite

/// For the groups of sensitive pages: reads when and how the session signed in, and says in the
/// context whether that proof is fresh enough (``AuthCore/Confirmation``), and where "Confirm
/// it's you" should return (this page for a GET; for a form, `afterPost`, or when nil the page of
/// the form's own address). ``ConfirmedContext`` then lets the request in or sends it to confirm.
struct ProofCheck: Middleware {
    typealias Context = AppContext
    let signIn: SignInService
    /// `--confirm-within`, in seconds.
    let within: TimeInterval
    let clock: @Sendable () -> Date
    var afterPost: String? = "/devices"

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        if context.user != nil,
            let record = try await context.sessionRecord(signIn)
        {
            context.proofIsFresh = Confirmation.isFresh(record, now: clock(), within: within)
        }
        context.confirmNext =
            request.method == .get
            ? request.path + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery) : afterPost ?? request.path
        return try await next(request, context)
    }
}
