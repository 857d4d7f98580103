import AuthCore
import HTTPLite

/// An unknown page costs what the console's door costs a signed-in visitor who is no operator:
/// the session the cookie names is looked up before the 404 (``OperatorGate`` looks it up to
/// know who asks), so how long an answer takes does not tell `/admin` from any unknown address.
/// Only a 404 of the router with a session cookie pays it.
struct UnknownPageLookup: Middleware {
    typealias Context = AppContext
    let signIn: SignInService
    let cookie: SessionCookie

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as StatusError where error.refusal == .noPage {
            for token in cookie.tokens(in: request) {
                if try await signIn.state(of: token) != nil { break }
            }
            throw error
        }
    }
}
