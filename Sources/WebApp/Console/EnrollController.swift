import AuthCore
import ConsoleCore
import Foundation
import HTTPLite

/// An operator's enrollment link (`/admin/enroll?token=…`, made by `webapp admin enroll`): the
/// one way to add a passkey to an operator's account without one of its passkeys, so a text
/// never leads to the console. The link is for the operator signed in with its number, works
/// once, and for 15 minutes.
struct EnrollController: Sendable {
    let passkeys: PasskeyService
    let console: any ConsoleStore
    let pages: Pages
    let cookies: PasskeyCookies
    let clock: @Sendable () -> Date

    func register(visitors: RouteScope<ConsoleVisitorContext>) {
        visitors.get("/admin/enroll", use: show)
        visitors.post("/admin/enroll/options", use: options)
        visitors.post("/admin/enroll", use: enroll)
    }

    /// The link's token, if the link is live for this operator now.
    private func live(_ request: Request, _ context: ConsoleVisitorContext) async throws -> (String, Data)? {
        guard let token = request.query["token"], let sha256 = Enrollment.sha256(of: token),
            try await console.enrollmentIsLive(
                tokenSHA256: sha256, phone: context.user.phone.e164, at: clock().timeIntervalSince1970)
        else { return nil }
        return (token, sha256)
    }

    @Sendable func show(_ request: Request, _ context: ConsoleVisitorContext) async throws -> Response {
        let token = try await live(request, context)?.0
        return try pages.in(context.language).consoleEnroll(
            csrf: context.csrfToken, token: token, status: token == nil ? .gone : .ok)
    }

    /// Options for `navigator.credentials.create()`, while the link is live.
    @Sendable func options(_ request: Request, _ context: ConsoleVisitorContext) async throws -> Response {
        try await PasskeyController.refusalAsJSON(pages.in(context.language)) {
            guard try await live(request, context) != nil, let session = context.app.sessionToken else {
                throw PasskeyError.operatorProofNeeded
            }
            return try PasskeyController.json(
                try await passkeys.creationOptions(for: context.user, session: session, enrolled: true))
        }
    }

    /// The browser's new passkey: the link is used up, the passkey added, and the operator goes
    /// on to open the console with it.
    @Sendable func enroll(_ request: Request, _ context: ConsoleVisitorContext) async throws -> Response {
        let form = try request.formData()
        let pages = pages.in(context.language)
        guard let (token, sha256) = try await live(request, context), let session = context.app.sessionToken else {
            return try pages.consoleEnroll(csrf: context.csrfToken, token: nil, status: .gone)
        }
        // The passkey first: a ceremony the browser got wrong leaves the link for another try.
        let added: PasskeyRecord
        do {
            added = try await passkeys.register(
                Data((form["credential"] ?? "").utf8), for: context.user, session: session,
                browser: UserAgentDescription.describe(request.headers[.userAgent], pages.words),
                userAgent: request.headers[.userAgent], client: request.client?.group, enrolled: true)
        } catch let error as PasskeyError {
            return try pages.consoleEnroll(csrf: context.csrfToken, token: token, refusal: error)
        }
        // Then the link is used up; one used meanwhile (two tabs at once) takes the passkey back.
        guard
            try await console.useEnrollment(
                tokenSHA256: sha256, phone: context.user.phone.e164, at: clock().timeIntervalSince1970)
        else {
            try await passkeys.remove(added.id, of: context.user)
            return try pages.consoleEnroll(csrf: context.csrfToken, token: nil, status: .gone)
        }
        return .redirect(to: "/admin/proof?next=%2Fadmin")
    }
}
