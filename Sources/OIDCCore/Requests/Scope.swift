/// A scope this provider grants (OAuth 2.0 §3.3, OpenID Connect Core §5.4): `openid` (every
/// request asks it), `phone` (the number in the ID token) and `offline_access` (a refresh
/// token). Others asked for are left out; a list of scopes is kept in this order.
public enum Scope: String, Sendable, CaseIterable {
    case openid
    case phone
    case offlineAccess = "offline_access"

    /// The scopes of a space-separated list (a request's `scope`) that this provider knows, in
    /// its order; the others are left out.
    public static func known(in text: String) -> [Scope] {
        let asked = Set(text.split(separator: " ").map(String.init))
        return allCases.filter { asked.contains($0.rawValue) }
    }

    /// `had` with `more` added, in the provider's order.
    public static func union(_ had: [Scope], _ more: [Scope]) -> [Scope] {
        allCases.filter { had.contains($0) || more.contains($0) }
    }
}

extension [Scope] {
    /// The space-separated form: a token's `scope`, and how a grant keeps its scopes.
    public var text: String { map(\.rawValue).joined(separator: " ") }
}
