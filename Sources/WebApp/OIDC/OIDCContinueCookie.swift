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
struct OIDCContinueCookie: Sendable {
    let secure: Bool
    let key: SymmetricKey

    static let name = "oidc-continue"
    /// Long enough to sign in with a text that takes a while; an abandoned app sign-in stops
    /// steering the next one after it (and Login offers to leave it at once).
    static let maxAge = 600
    /// Browsers drop cookies over 4 KB: the whole value stays under it.
    static let maxValue = 3800

    struct Pending: Sendable {
        let query: String
        let since: Double
    }

    func cookie(query: Substring, since: Double) -> Cookie? {
        let payload = "\(Int(since)).\(Data(query.utf8).base64URLEncodedString())"
        let value = mac(payload) + "." + payload
        guard value.utf8.count <= Self.maxValue else { return nil }
        return Cookie(name: Self.name, value: value, maxAge: Self.maxAge, secure: secure)
    }

    func pending(in request: Request) -> Pending? {
        guard let value = request.cookie(Self.name), let dot = value.firstIndex(of: ".") else { return nil }
        let payload = String(value[value.index(after: dot)...])
        guard constantTimeEquals(Data(value[..<dot].utf8), Data(mac(payload).utf8)),
            let split = payload.firstIndex(of: "."), let since = Double(payload[..<split]),
            let data = Data(base64URLEncoded: String(payload[payload.index(after: split)...])),
            let query = String(data: data, encoding: .utf8)
        else { return nil }
        return Pending(query: query, since: since)
    }

    /// The pending request when it is this very request (its query as it came).
    func pending(in request: Request, for query: Substring) -> Pending? {
        guard let pending = pending(in: request), pending.query == query else { return nil }
        return pending
    }

    /// The client the pending request names, for "Sign in to Grafana" (unchecked beyond its id).
    func client(in request: Request, registry: ClientRegistry?) -> OIDCClient? {
        guard let registry, let pending = pending(in: request),
            let id = (try? URLEncodedForm(parsing: pending.query))?.values(for: "client_id").first
        else { return nil }
        return registry[id]
    }

    /// The `login_hint` of the pending request, if it parses as given.
    func loginHint(in request: Request) -> String? {
        guard let pending = pending(in: request) else { return nil }
        return (try? URLEncodedForm(parsing: pending.query))?.values(for: "login_hint").first.map {
            String($0.prefix(32))
        }
    }

    var cleared: Cookie { Cookie.expired(name: Self.name, secure: secure) }

    private func mac(_ payload: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: key)).base64URLEncodedString()
    }
}
