import HTTPLite
import OIDCCore

extension Response {
    /// Lets this page's forms end in a redirect to `client`'s redirect addresses (an app added
    /// in the console, not in the policy made at start-up): ``SecurityHeaders`` adds their
    /// origins to this page's `form-action`.
    mutating func allowingForms(to client: OIDCClient) {
        let origins = Application.formTargets(ClientRegistry([client]))
        // Origins of checked addresses; anything that could break out of the policy is dropped.
        let safe = origins.filter { $0.allSatisfy { $0.isLetter || $0.isNumber || ":/.-[]".contains($0) } }
        guard !safe.isEmpty else { return }
        headers[SecurityHeaders.extraFormTargets] = safe.joined(separator: " ")
    }
}

/// Pages shown while an app's sign-in is under way (its continue cookie): when the app is one
/// added in the console, their forms may end in a redirect to it.
struct OIDCFormTargets: Middleware {
    typealias Context = AppContext
    let provider: OIDCProvider
    let continuing: OIDCContinueCookie

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard let id = continuing.clientID(in: request), provider.registry[id] == nil,
            let client = try await provider.client(id)
        else { return response }
        response.allowingForms(to: client)
        return response
    }
}
