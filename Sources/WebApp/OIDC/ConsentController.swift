import AuthCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

/// "Grafana wants your phone number": the consent page an app that is not first-party gets
/// once per person (then remembered), and the connected apps on "Your devices".
struct ConsentController: Sendable {
    let provider: OIDCProvider
    let oidc: OIDCController
    let pages: Pages
    let continuing: OIDCContinueCookie

    func register(signedIn: RouteGroup<SignedInContext>) {
        signedIn.get("/oidc/consent", use: show)
        signedIn.post("/oidc/consent", use: decide)
        signedIn.post("/devices/apps/:client/disconnect", use: disconnect)
        signedIn.get("/devices/apps/:client/disconnect") { _, _ in .redirect(to: "/devices") }
    }

    /// The request, validated again (the page is reached by a link anyone can make).
    private func authorization(_ query: String) throws -> AuthorizationRequest {
        let form = (try? URLEncodedForm(parsing: query)) ?? URLEncodedForm()
        do {
            return try AuthorizationRequest.parse(form.pairs.map { ($0.name, $0.value) }, registry: provider.registry)
        } catch {
            throw HTTPError(.badRequest, Phrase("oidc.redirectMismatch"), message: "This sign-in link is not valid.")
        }
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let authorization = try authorization(String(request.rawQuery))
        return try pages.in(context.language).consent(
            csrf: context.csrfToken, client: authorization.client, scopes: authorization.scopes,
            request: String(request.rawQuery))
    }

    /// Allow: remembered, and back to the app with a code. Don't allow: back with
    /// `access_denied`.
    @Sendable func decide(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let form = try request.formData()
        let authorization = try authorization(form["request"] ?? "")
        guard let person = try await oidc.person(context.app) else { throw Redirect.toLogin }
        let location =
            form["decision"] == "allow"
            ? try await provider.approve(authorization, person: person) : provider.deny(authorization)
        var response = Response.redirect(to: location, status: .seeOther)
        if continuing.pending(in: request) != nil { response.setCookie(continuing.cleared) }
        return response
    }

    /// Disconnects an app: its consent and every token it holds for this person end.
    @Sendable func disconnect(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let client = context.parameters["client"], provider.registry[client] != nil else {
            throw HTTPError(.notFound, Phrase("http.noPage"), message: "There is no page at this address.")
        }
        try await provider.disconnect(user: context.user.id, client: client)
        return .redirect(to: "/devices")
    }
}
