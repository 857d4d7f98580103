import AuthCore
import Foundation
import HTTPLite
import Wording

/// "Your devices" in the API: `GET /api/v1/sessions` lists where the caller is signed in (API
/// tokens are `"kind": "api"`), `DELETE /api/v1/sessions/{id}` ends one at once (204; someone
/// else's or an unknown id: 404).
struct SessionsAPIController: Sendable {
    let signIn: SignInService
    /// The words of `description` ("Safari on iPhone"), in the `Accept-Language` language.
    let wording: Wording

    func register(signedIn: RouteScope<APIUserContext>) {
        signedIn.get("/sessions", use: list)
        signedIn.delete("/sessions/:id", use: end)
    }

    struct SessionReply: Encodable {
        let id: String
        let kind: String
        let description: String
        let signed_in_at: String
        let last_seen_at: String
        let current: Bool
    }

    struct SessionsReply: Encodable {
        let sessions: [SessionReply]
    }

    @Sendable func list(_ request: Request, _ context: APIUserContext) async throws -> Response {
        let places = try await signIn.places(of: context.user)
        let current = context.token.storageKey
        let formatter = ISO8601DateFormatter()
        return try APIController.reply(
            SessionsReply(
                sessions: places.sessions.map { session in
                    SessionReply(
                        id: SignedInPlaces.publicID(of: session.key), kind: session.api ? "api" : "browser",
                        description: UserAgentDescription.describe(session, wording[context.language]),
                        signed_in_at: formatter.string(from: Date(timeIntervalSince1970: session.signedInAt)),
                        last_seen_at: formatter.string(from: Date(timeIntervalSince1970: session.lastSeenAt)),
                        current: session.key == current)
                }))
    }

    @Sendable func end(_ request: Request, _ context: APIUserContext) async throws -> Response {
        guard let id = context.parameters["id"], try await signIn.signOut(sessionID: id, of: context.user) else {
            throw StatusError(.notFound, Phrase("http.noSuchSession"), message: "There is no such session.")
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}
