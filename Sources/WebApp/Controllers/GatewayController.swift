import AuthCore
import Foundation
import GatewayCore
import HTTPLite
import HTTPTypes
import NIOCore
import WalletCore

/// Gateway mode's endpoints for the reverse proxy in front of the protected apps
/// (docs/GATEWAY.md): is this request signed in, and as whom?
///
/// - `GET /auth/request` (nginx `auth_request`): 200, 401 or 403, nothing else (nginx
///   understands no other answer).
/// - `GET /auth/forward` (Traefik `ForwardAuth`, Caddy `forward_auth`): 200; not signed in, a
///   302 to Login carrying the original address; 403 with a page saying why.
/// - `GET /.well-known/jwks.json`: the public keys that verify the assertions.
///
/// On 200 both say who it is: `Remote-User` (E.164), `Remote-Name` (the display name, when set)
/// and `Phone-Login-Assertion` (an ES256 JWT for that app). They answer from the session
/// lookup alone: nothing is rendered, and the display name is read only when a new assertion is
/// signed (once a minute per person and app).
struct GatewayController: Sendable {
    let gateway: Gateway
    let signer: AssertionSigner
    let wallet: Wallet
    let pages: Pages

    /// - Parameter visitors: the group whose middleware looked up the session cookie.
    func register(visitors: RouteScope<AppContext>, keys: Router<AppContext>) {
        visitors.get("/auth/request", use: request)
        visitors.get("/auth/forward", use: forward)
        keys.get("/.well-known/jwks.json", use: keySet)
    }

    @Sendable func request(_ request: Request, _ context: AppContext) async throws -> Response {
        switch decide(request, context) {
        case .pass(let user, let host):
            return try await passing(user, host)
        case .signIn:
            return Self.plain("Not signed in.", status: .unauthorized)
        case .notAllowed(_, let host):
            return Self.plain("This number is not allowed on \(host.name).", status: .forbidden)
        case .refused(let refusal):
            return Self.plain(refusal.description, status: .forbidden)
        }
    }

    @Sendable func forward(_ request: Request, _ context: AppContext) async throws -> Response {
        switch decide(request, context) {
        case .pass(let user, let host):
            return try await passing(user, host)
        case .signIn(let returnTo):
            var response = Response.redirect(to: gateway.loginAddress(returningTo: returnTo), status: .found)
            response.headers[.cacheControl] = "no-store"
            return response
        case .notAllowed(let user, let host):
            return try pages.in(context.language).notAllowed(
                phone: user.phone, host: host.name, signOut: gateway.publicURL + "/logout", publicURL: gateway.publicURL
            )
        case .refused(let refusal):
            return Self.plain(refusal.description, status: .forbidden)
        }
    }

    @Sendable func keySet(_ request: Request, _ context: AppContext) async throws -> Response {
        var response = Response(
            status: .ok, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: signer.keySetJSON))
        // Upstreams fetch the key set now and then; an hour keeps a rotation's new key visible
        // well within the day the old one stays listed.
        response.headers.append(HTTPField(name: .cacheControl, value: "public, max-age=3600"))
        return response
    }

    /// The decision for the request the proxy describes, logged once here for both endpoints
    /// when it refuses.
    private func decide(_ request: Request, _ context: AppContext) -> Gateway.Decision {
        let headers = request.headers
        let decision = gateway.decide(
            (
                proto: headers[.xForwardedProto], host: Self.single(headers, .xForwardedHost),
                uri: headers[.xForwardedURI]
            ), user: context.user)
        switch decision {
        case .notAllowed(let user, let host):
            context.logger.info(
                "Gateway: signed in but not allowed", metadata: ["host": "\(host.name)", "user": "\(user.id)"])
        case .refused(let refusal):
            context.logger.warning("Gateway: refused the proxy's request: \(refusal)")
        case .pass, .signIn:
            break
        }
        return decision
    }

    /// 200 with who it is.
    private func passing(_ user: User, _ host: HostName) async throws -> Response {
        let pass = try await signer.pass(for: user, audience: host) {
            let name = try await wallet.overview(user: user.id, defaultName: "").displayName
            return name.isEmpty ? nil : name
        }
        var response = Self.plain("Signed in.", status: .ok)
        response.headers.append(HTTPField(name: .remoteUser, value: user.phone.e164))
        if let name = pass.name { response.headers.append(HTTPField(name: .remoteName, value: name)) }
        response.headers.append(HTTPField(name: .phoneLoginAssertion, value: pass.assertion))
        return response
    }

    /// The header's value when it is given exactly once; a repeated header is none.
    private static func single(_ headers: HTTPFields, _ name: HTTPField.Name) -> String? {
        let values = headers[values: name]
        return values.count == 1 ? values[0] : nil
    }

    /// A short text answer no cache keeps: each answer is about one person at one moment.
    private static func plain(_ text: String, status: HTTPResponse.Status) -> Response {
        var response = Response.text(text, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

extension HTTPField.Name {
    /// What gateway mode hands the protected app (docs/GATEWAY.md): the person's number, their
    /// name, and the signed assertion.
    static let remoteUser = Self("Remote-User")!
    static let remoteName = Self("Remote-Name")!
    static let phoneLoginAssertion = Self("Phone-Login-Assertion")!
}
