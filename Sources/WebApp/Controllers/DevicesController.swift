import AuthCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

/// "Your devices" (`/devices`, linked from Home): where the person is signed in and which phones
/// are remembered, each with a button that ends it at once (on every instance: the rows go).
/// Signed out, every address here goes to Login (the group's context says so).
struct DevicesController: Sendable {
    let signIn: SignInService
    let pages: Pages
    let device: DeviceCookie
    /// Passkeys, when on: listed here, with rename and remove, and "Add a passkey".
    var passkeys: PasskeyService? = nil
    var passkeyCookies = PasskeyCookies(secure: false)
    /// The OpenID Connect provider, when on: the apps the person connected, with Disconnect.
    var oidc: OIDCProvider? = nil

    /// - Parameter confirmed: the group of what asks "Confirm it's you" first (signing out
    ///   everywhere else).
    func register(signedIn: RouteScope<SignedInContext>, confirmed: RouteScope<ConfirmedContext>) {
        signedIn.get("/devices", use: show)
        signedIn.post("/devices/sessions/:id/sign-out", use: signOutSession)
        confirmed.post("/devices/sign-out-others", use: signOutOthers)
        signedIn.post("/devices/:id/forget", use: forget)
        // Reload or Back on the page a refused form was answered with asks its address with GET:
        // the devices page as it is now, never a 405.
        for address in ["/devices/sessions/:id/sign-out", "/devices/sign-out-others", "/devices/:id/forget"] {
            signedIn.get(address) { _, _ in .redirect(to: "/devices") }
        }
    }

    @Sendable func show(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let notice = passkeyCookies.notice(in: request)
        var response = try await page(
            request, context, notice: notice.map { pages.in(context.language).words($0.key) })
        if notice != nil { response.setCookie(passkeyCookies.noticeCleared) }
        return response
    }

    /// The apps the person let have their phone number (those still configured); `nil` when the
    /// provider is off.
    private func connectedApps(of user: User) async throws -> [(client: OIDCClient, grantedAt: Double)]? {
        guard let oidc else { return nil }
        var apps: [(client: OIDCClient, grantedAt: Double)] = []
        for consent in try await oidc.consents(of: user.id) {
            if let client = try await oidc.client(consent.clientID) { apps.append((client, consent.grantedAt)) }
        }
        return apps
    }

    /// The page as it stands, with a notice, or with the reason a passkey change was refused
    /// (and that error's status).
    func page(
        _ request: Request, _ context: SignedInContext, notice: String? = nil, error: PasskeyError? = nil
    ) async throws -> Response {
        guard let current = context.app.sessionToken else { throw Redirect.toLogin }
        return try pages.in(context.language).devices(
            csrf: context.csrfToken, user: context.user, places: try await signIn.places(of: context.user),
            passkeys: try await passkeys?.passkeys(of: context.user).passkeys,
            apps: try await connectedApps(of: context.user),
            currentSession: current.storageKey, currentDevice: device.token(in: request)?.storageKey,
            passkeyHere: passkeyCookies.hereID(in: request), notice: notice, error: error)
    }

    @Sendable func signOutSession(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let id = context.parameters["id"], try await signIn.signOut(sessionID: id, of: context.user) else {
            throw StatusError(.notFound, Phrase("http.noSuchSignIn"), message: "There is no such sign-in.")
        }
        return .redirect(to: "/devices")
    }

    @Sendable func signOutOthers(_ request: Request, _ context: ConfirmedContext) async throws -> Response {
        guard let current = context.app.sessionToken else { throw Redirect.toLogin }
        try await signIn.signOutEverywhereElse(
            of: context.user, current: current, currentDevice: device.token(in: request))
        // From Recent activity ("Not you?"), back there, where the sign-outs now show.
        let from = try? request.formData().values(for: "from").first
        return .redirect(to: from == "activity" ? "/account/activity" : "/devices")
    }

    @Sendable func forget(_ request: Request, _ context: SignedInContext) async throws -> Response {
        guard let id = context.parameters["id"].flatMap(Int64.init),
            try await signIn.forgetDevice(id: id, of: context.user)
        else { throw StatusError(.notFound, Phrase("http.noSuchDevice"), message: "There is no such device.") }
        return .redirect(to: "/devices")
    }
}
