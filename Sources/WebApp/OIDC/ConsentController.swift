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
    /// "Not you?": the session ends here, and the app's sign-in starts again at Login.
    let signIn: SignInService
    let cookie: SessionCookie
    /// This browser's number and remembered phone, which "Not you?" forgets as Login's does.
    let landing: SignedInLanding

    func register(signedIn: RouteScope<SignedInContext>) {
        signedIn.get("/oidc/consent", use: show)
        signedIn.post("/oidc/consent", use: decide)
        signedIn.post("/devices/apps/:client/disconnect", use: disconnect)
        signedIn.get("/devices/apps/:client/disconnect") { _, _ in .redirect(to: "/devices") }
    }

    /// The request, validated again (the page is reached by a link anyone can make).
    private func authorization(_ query: String) async throws -> AuthorizationRequest {
        let form = (try? URLEncodedForm(parsing: query)) ?? URLEncodedForm()
        let registry = try await provider.registry(including: form["client_id"])
        do {
            return try AuthorizationRequest.parse(form.pairs.map { ($0.name, $0.value) }, registry: registry)
        } catch {
            throw StatusError(.badRequest, Phrase("oidc.redirectMismatch"), message: "This sign-in link is not valid.")
        }
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let authorization = try await authorization(String(request.rawQuery))
        var page = try pages.in(context.language).consent(
            csrf: context.csrfToken, client: authorization.client, scopes: authorization.scopes,
            request: String(request.rawQuery), phone: context.user.phone)
        // Its form ends in a redirect to the app, which may be one added in the console.
        if provider.registry[authorization.client.id] == nil { page.allowingForms(to: authorization.client) }
        return page
    }

    /// Allow: remembered, and back to the app with a code. Don't allow: back with
    /// `access_denied`.
    @Sendable func decide(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let form = try request.formData()
        let query = form["request"] ?? ""
        let authorization = try await authorization(query)
        guard let person = try await oidc.person(context.app) else { throw Redirect.toLogin }
        if form["decision"] == "switch" {
            // "Not you?": signed out here, then the same request again, which now asks for a
            // sign-in (Login names the app).
            if let token = context.app.sessionToken {
                try await signIn.signOut(
                    session: token, by: person.userID, userAgent: request.headers[.userAgent],
                    client: request.client?.group)
            }
            var response = Response.redirect(to: "/oidc/authorize?" + query, status: .seeOther)
            response.setCookie(cookie.expired())
            // Not this person: Login must not greet them or offer to continue as them.
            try await landing.forget(request, on: &response, signIn: signIn, number: true)
            return response
        }
        guard form["decision"] == "allow" else {
            var response = Response.redirect(to: provider.deny(authorization), status: .seeOther)
            if continuing.pending(in: request) != nil { response.setCookie(continuing.cleared) }
            return response
        }
        // The request's sign-in checks (prompt=login, max_age) hold here too: the page's address
        // is anyone's to open with an old session.
        let pending = continuing.pending(in: request, for: Substring(query))
        // Only a request whose answer is this page may be allowed here: one that asks for a
        // sign-in again, or that prompt=none refuses, goes back to be answered as such.
        guard
            try await provider.next(
                for: authorization, person: person, pendingSince: pending?.since, askConsent: false) == .consent
        else {
            return .redirect(to: "/oidc/authorize?" + query)
        }
        let location = try await provider.approve(authorization, person: person)
        var response = Response.redirect(to: location, status: .seeOther)
        if continuing.pending(in: request) != nil { response.setCookie(continuing.cleared) }
        return response
    }

    /// Disconnects an app: its consent and every token it holds for this person end.
    @Sendable func disconnect(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let client = context.parameters["client"], try await provider.client(client) != nil else {
            throw StatusError(.notFound, .noPage, message: "There is no page at this address.")
        }
        try await provider.disconnect(user: context.user.id, client: client)
        return .redirect(to: "/devices")
    }
}
