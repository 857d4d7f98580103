import AuthCore
import Foundation
import HTTPLite

/// Looks up the session named by `Authorization: Bearer TOKEN` and puts it in the context, for
/// the API group whose calls need a signed-in caller (``APIUserContext`` refuses the rest with
/// 401). Reads no cookies: a forged cross-site request has nothing to ride on.
struct BearerAuthentication: Middleware {
    let signIn: SignInService

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization],
            header.count > 7, header.prefix(7).lowercased() == "bearer ",
            let token = SessionToken(String(header.dropFirst(7).trimmingCharacters(in: .whitespaces)))
        else { throw APIError.unauthorized }
        var context = context
        context.session = try await signIn.state(of: token)
        context.sessionToken = context.session == nil ? nil : token
        // Refused here, not by the group's context: a thrown error reaches the API's error
        // middleware, which answers in the caller's language.
        guard context.user != nil else { throw APIError.unauthorized }
        return try await next(request, context)
    }
}
