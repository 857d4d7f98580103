import AuthCore
import HTTPLite
import WalletCore

/// Looks up the session the cookie names and puts it in the context; a cookie for a session
/// that is gone (expired, logged out, unknown) is deleted from the browser.
///
/// On `GET /home`, the page every signed-in visit lands on, the wallet overview is read in the
/// same database round trip as the session and handed to the page in the context.
struct SessionMiddleware: Middleware {
    let signIn: SignInService
    let cookie: SessionCookie
    /// Home's overview is read together with the session.
    let wallet: Wallet

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        guard let token = cookie.token(in: request) else {
            if request.cookie(cookie.name) != nil {
                var response = try await next(request, context)
                response.setCookie(cookie.expired())
                return response
            }
            return try await next(request, context)
        }
        var context = context
        if request.method == .GET, request.path == "/home" {
            let found = try await wallet.home(session: token, signIn: signIn)
            context.session = found?.state
            context.homeOverview = found?.overview
        } else {
            context.session = try await signIn.state(of: token)
        }
        guard context.session != nil else {
            var response = try await next(request, context)
            if !response.headers["Set-Cookie"].contains(where: { $0.hasPrefix(cookie.name + "=") }) {
                response.setCookie(cookie.expired())
            }
            return response
        }
        context.sessionToken = token
        return try await next(request, context)
    }
}
