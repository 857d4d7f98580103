import ArgumentParser
import Foundation
import GatewayCore
import JWTKit

/// The `webapp` options of gateway mode: Phone Login in front of other apps on one domain,
/// asked by their reverse proxy whether each request is signed in (docs/GATEWAY.md).
struct GatewayOptions: ParsableArguments {
    @Option(
        name: .customLong("public-url"),
        help: """
            This app's own address, such as https://login.example.com: where Twilio or the SMS webhook \
            report each text's and call's delivery, and gateway mode's issuer.
            """)
    var publicURL: String?

    @Option(
        name: .customLong("gateway-domain"),
        help: """
            Turns gateway mode on: the domain of the apps to protect (it and its subdomains); the \
            session cookie is set for it, and /auth/request, /auth/forward and /.well-known/jwks.json answer.
            """)
    var domain: String?

    @Option(
        name: .customLong("gateway-rules"),
        help: "JSON file: per protected host, the numbers (+14155550100) or area codes (+1530) allowed.")
    var rulesPath: String?

    @Flag(
        name: .customLong("rotate-assertion-key"),
        help: """
            Replace the gateway's signing key in the data folder with a new one and exit; the old public \
            key stays in /.well-known/jwks.json for 24 hours.
            """)
    var rotateAssertionKey = false

    /// The option names that may also come from `WEBAPP_*` variables.
    static let names = ["public-url", "gateway-domain", "gateway-rules"]

    func validate() throws {
        if domain == nil, rulesPath != nil {
            throw ValidationError("--gateway-rules needs --gateway-domain (gateway mode).")
        }
        if domain != nil, publicURL == nil {
            throw ValidationError("--gateway-domain needs --public-url, this app's own address on that domain.")
        }
    }

    /// `--public-url` checked: an `https://` origin (`http://` too without `--https`, for trying
    /// it out), with no path, query or fragment; no trailing slash. `nil` when not given.
    func publicAddress(https: Bool) throws -> String? {
        guard var text = publicURL else { return nil }
        if text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "https" || (scheme == "http" && !https), let host = url.host, !host.isEmpty,
            url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil,
            !text.contains("#"), !text.contains("?")
        else {
            throw ValidationError(
                "--public-url must be this app's \(https ? "https://" : "http(s)://") address with no path, like https://login.example.com."
            )
        }
        return text
    }

    /// Gateway mode as the options describe it; `nil` when it is off.
    func gateway(https: Bool) throws -> Gateway? {
        guard let domainText = domain, let publicURL else { return nil }
        do {
            let domain = try GatewayDomain(domainText)
            let rules = try rulesPath.map { path throws(GatewayRules.Invalid) in
                try GatewayRules.load(path: path, domain: domain)
            }
            return try Gateway(publicURL: publicURL, domain: domain, rules: rules ?? .everyone, https: https)
        } catch let error as CustomStringConvertible & Error {
            throw ValidationError(error.description)
        }
    }

    /// The signing keys the environment gives (`WEBAPP_ASSERTION_KEY`, PEM, and optionally
    /// `WEBAPP_ASSERTION_KEY_PREVIOUS`); `nil`: the data folder's.
    static func oidcRSAKey(environment: [String: String]) throws -> JWTKit.Insecure.RSA.PrivateKey? {
        guard let pem = environment["WEBAPP_OIDC_RSA_KEY"] else { return nil }
        do {
            return try RSASigningKey.key(pem, source: "WEBAPP_OIDC_RSA_KEY")
        } catch let error as AssertionKeys.Invalid {
            throw ValidationError(error.description)
        }
    }

    static func assertionKeys(environment: [String: String]) throws -> AssertionKeys? {
        guard let pem = environment["WEBAPP_ASSERTION_KEY"] else { return nil }
        do {
            return try AssertionKeys(
                pem: pem, previousPEM: environment["WEBAPP_ASSERTION_KEY_PREVIOUS"], source: "WEBAPP_ASSERTION_KEY")
        } catch {
            throw ValidationError(error.description)
        }
    }
}
