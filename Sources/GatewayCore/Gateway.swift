import AuthCore
import Foundation

/// Gateway mode, decided: Phone Login in front of other apps on one domain. A reverse proxy
/// asks, for each request to a protected app, whether it may pass (``decide(_:user:)``); Login
/// takes the address to come back to (``returnAddress(_:)``).
public struct Gateway: Sendable {
    /// The protected apps' domain (and the session cookie's).
    public let domain: GatewayDomain
    /// Who may pass to which app.
    public let rules: GatewayRules
    /// This app's own address, without a trailing slash (`https://login.example.com`).
    public let publicURL: String
    /// `http` addresses are accepted too: the app is not served over HTTPS (a test set-up).
    public let allowHTTP: Bool

    /// Why the gateway settings were refused.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(publicURL: String, domain: GatewayDomain, rules: GatewayRules, https: Bool) throws(Invalid) {
        var text = publicURL
        if text.hasSuffix("/") { text.removeLast() }
        guard let address = ReturnAddress(text, domain: domain, allowHTTP: !https),
            address.url.utf8.count == text.utf8.count, !text.dropFirst(8).contains("/"),
            !text.contains("?"), !text.contains("#")
        else {
            throw Invalid(
                description: https
                    ? "--public-url must be this app's https:// address on the gateway domain \(domain), like https://login.\(domain)."
                    : "--public-url must be this app's http(s):// address on the gateway domain \(domain), like https://login.\(domain)."
            )
        }
        (self.publicURL, self.domain, self.rules, self.allowHTTP) = (address.url, domain, rules, !https)
    }

    /// What the check endpoints answer.
    public enum Decision: Sendable, Equatable {
        /// Signed in and allowed: pass, with who it is.
        case pass(User, HostName)
        /// Not signed in: sign in, then come back here (when the address is a safe one).
        case signIn(returnTo: ReturnAddress?)
        /// Signed in, but the rules do not let this person into this app.
        case notAllowed(User, HostName)
        /// The proxy's description of the request is unusable or outside the domain.
        case refused(ForwardedRequest.Refusal)
    }

    /// The answer for a request the proxy describes with `X-Forwarded-*` headers, made by the
    /// person `user` (`nil`: not signed in).
    public func decide(_ headers: (proto: String?, host: String?, uri: String?), user: User?) -> Decision {
        let request: ForwardedRequest
        do {
            request = try ForwardedRequest(
                proto: headers.proto, host: headers.host, uri: headers.uri, domain: domain, allowHTTP: allowHTTP)
        } catch {
            return .refused(error)
        }
        guard let user else { return .signIn(returnTo: request.returnAddress) }
        return rules.admits(user.phone, to: request.host) ? .pass(user, request.host) : .notAllowed(user, request.host)
    }

    /// `text` (Login's `rd=`) when it is a safe address to send someone to after signing in.
    public func returnAddress(_ text: some StringProtocol) -> ReturnAddress? {
        ReturnAddress(text, domain: domain, allowHTTP: allowHTTP)
    }

    /// Login's address on this app, carrying `returnTo` as `rd=`.
    public func loginAddress(returningTo returnTo: ReturnAddress?) -> String {
        guard let returnTo else { return publicURL + "/login" }
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return publicURL + "/login?rd=" + (returnTo.url.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")
    }
}
