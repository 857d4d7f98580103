import AuthCore
import Crypto
import Encodings
import Foundation
import HTTPLite
import OIDCCore

/// Carries an authorization request across Login and Verify: the request's query (base64url),
/// when it first came, and a MAC under a key derived from the server secret, so that after
/// signing in the person lands back on `/oidc/authorize` with it, and `prompt=login` or
/// `max_age` count a sign-in made since as fresh for that request only. A cookie we did not
/// write (a sibling subdomain's) is ignored; the request is validated whole again when it comes
/// back.
///
/// Its age is checked here, not only by the browser's `Max-Age`: a value kept and sent again
/// later is ignored. It is tied to the browser that started the request: the MAC covers a random
/// value in a second cookie of that browser (`oidc-browser`), so a value copied into another
/// browser proves nothing there. Under `--https` both are `__Host-` cookies, which a sibling
/// subdomain cannot set.
struct OIDCContinueCookie: Sendable {
    let secure: Bool
    let key: SymmetricKey
    var clock: @Sendable () -> Date = { Date() }

    var name: String { (secure ? "__Host-" : "") + "oidc-continue" }
    /// The browser's own random value the MAC covers.
    var bindingName: String { (secure ? "__Host-" : "") + "oidc-browser" }
    /// Long enough to sign in with a text that takes a while; an abandoned app sign-in stops
    /// steering the next one after it (and Login offers to leave it at once).
    static let maxAge = 600
    /// Browsers drop cookies over 4 KB: the whole value stays under it.
    static let maxValue = 3800

    struct Pending: Sendable {
        let query: String
        let since: Double
    }

    /// The cookies that carry `query` from now: the request's own, and this browser's binding
    /// (kept, or a new one); `nil` when the query is too long for a cookie.
    func cookies(query: Substring, in request: Request) -> [Cookie]? {
        let binding = self.binding(in: request) ?? SessionToken.generate().value
        let payload = "\(Int(clock().timeIntervalSince1970)).\(Data(query.utf8).base64URLEncodedString())"
        let value = mac(payload, binding: binding) + "." + payload
        guard value.utf8.count <= Self.maxValue else { return nil }
        return [
            Cookie(name: name, value: value, maxAge: Self.maxAge, secure: secure),
            Cookie(name: bindingName, value: binding, maxAge: Self.maxAge, secure: secure),
        ]
    }

    /// The browser's binding value, if it sent a well-formed one.
    private func binding(in request: Request) -> String? {
        request.cookie(bindingName).flatMap(SessionToken.init)?.value
    }

    /// The request this browser started, if its cookie is ours, for this browser, and younger than
    /// ``maxAge`` (a time ahead of the clock counts as none).
    func pending(in request: Request) -> Pending? {
        guard let value = request.cookie(name), let dot = value.firstIndex(of: "."), let binding = binding(in: request)
        else { return nil }
        let payload = String(value[value.index(after: dot)...])
        guard constantTimeEquals(Data(value[..<dot].utf8), Data(mac(payload, binding: binding).utf8)),
            let split = payload.firstIndex(of: "."), let since = Double(payload[..<split]),
            let data = Data(base64URLEncoded: String(payload[payload.index(after: split)...])),
            let query = String(data: data, encoding: .utf8)
        else { return nil }
        let age = clock().timeIntervalSince1970 - since
        guard age >= -60, age <= Double(Self.maxAge) else { return nil }
        return Pending(query: query, since: since)
    }

    /// The pending request when it is this very request (its query as it came).
    func pending(in request: Request, for query: Substring) -> Pending? {
        guard let pending = pending(in: request), pending.query == query else { return nil }
        return pending
    }

    /// The client id the pending request names (unchecked beyond that).
    func clientID(in request: Request) -> String? {
        guard let pending = pending(in: request) else { return nil }
        return (try? URLEncodedForm(parsing: pending.query))?.values(for: "client_id").first
    }

    /// The client the pending request names, for "Sign in to Grafana" (unchecked beyond its id).
    func client(in request: Request, provider: OIDCProvider?) async throws -> OIDCClient? {
        guard let provider, let id = clientID(in: request) else { return nil }
        return try await provider.client(id)
    }

    /// The `login_hint` of the pending request, if it parses as given.
    func loginHint(in request: Request) -> String? {
        guard let pending = pending(in: request) else { return nil }
        return (try? URLEncodedForm(parsing: pending.query))?.values(for: "login_hint").first.map {
            String($0.prefix(32))
        }
    }

    var cleared: Cookie { Cookie.expired(name: name, secure: secure) }

    private func mac(_ payload: String, binding: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data((binding + "." + payload).utf8), using: key))
            .base64URLEncodedString()
    }
}
