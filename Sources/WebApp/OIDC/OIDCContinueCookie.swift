import Foundation
import HTTPLite
import OIDCCore

/// Carries an authorization request across Login and Verify: the request's query (base64url,
/// at most 4 KB) and when it first came, so that after signing in the person lands back on
/// `/oidc/authorize` with it, and `prompt=login` or `max_age` count a sign-in made since as
/// fresh. It decides nothing itself: the request is validated whole again when it comes back.
struct OIDCContinueCookie: Sendable {
    let secure: Bool

    static let name = "oidc-continue"
    /// Long enough to sign in with a text that takes a while.
    static let maxAge = 1800
    static let maxQuery = 4096

    struct Pending: Sendable {
        let query: String
        let since: Double
    }

    func cookie(query: Substring, since: Double) -> Cookie? {
        guard query.utf8.count <= Self.maxQuery else { return nil }
        let encoded = Data(query.utf8).base64URLEncodedString()
        return Cookie(name: Self.name, value: "\(Int(since)).\(encoded)", maxAge: Self.maxAge, secure: secure)
    }

    func pending(in request: Request) -> Pending? {
        guard let value = request.cookie(Self.name), let dot = value.firstIndex(of: "."),
            let since = Double(value[..<dot]),
            let data = Data(base64URLEncoded: String(value[value.index(after: dot)...])),
            let query = String(data: data, encoding: .utf8)
        else { return nil }
        return Pending(query: query, since: since)
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
}
