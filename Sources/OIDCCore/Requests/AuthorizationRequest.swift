import Foundation

/// An authorization request (OpenID Connect Core §3.1.2.1), validated whole into a typed value
/// before anything happens: the client and its exact redirect URI first (without those, an
/// error page, never a redirect: RFC 6749 §4.1.2.1), then every other parameter (refused by
/// redirecting back with `error` and `state`).
public struct AuthorizationRequest: Sendable, Equatable {
    /// What `prompt` asks (Core §3.1.2.1): `none` alone, or `login` and `consent`, either or
    /// both (`prompt=login consent`: a fresh sign-in, then the consent page).
    public struct Prompt: Sendable, Equatable {
        /// Never show a page: signed in (and consented) or `login_required` / `consent_required`.
        public var none = false
        /// Sign in again even when signed in.
        public var login = false
        /// Ask for consent again, even when given before (a first-party client is never asked).
        public var consent = false

        /// No `prompt`.
        public static let normal = Prompt()
    }

    public let client: OIDCClient
    public let redirectURI: String
    /// The scopes granted ones among those asked: `openid` always, `phone`, `offline_access`.
    public let scopes: [Scope]
    public let state: String?
    public let nonce: String?
    /// PKCE S256 challenge (required of public clients).
    public let codeChallenge: String?
    public let prompt: Prompt
    /// Seconds since the person's sign-in beyond which they must sign in again.
    public let maxAge: Int?
    /// A phone number to fill in on Login.
    public let loginHint: String?
    /// The app sent `acr_values`: it wants the person to have proved themselves just now. This
    /// provider has one level, a fresh proof (a code or a passkey within `--confirm-within`), so
    /// any value asks for it; the ID token names none (the values are voluntary, Core §3.1.2.1).
    public let asksFreshProof: Bool

    /// Longest accepted `state` and `nonce`: apps use tens of characters.
    static let maxValueLength = 512

    /// Parses the query's parameters (each given at most once).
    public static func parse(_ parameters: [(String, String)], registry: ClientRegistry) throws(AuthorizationError)
        -> AuthorizationRequest
    {
        var values: [String: String] = [:]
        var repeated: String?
        for (name, value) in parameters {
            if values[name] != nil { repeated = repeated ?? name }
            values[name] = value
        }
        guard let clientID = values["client_id"], let client = registry[clientID] else {
            throw .page(.unknownClient)
        }
        guard let redirectURI = values["redirect_uri"], client.registers(redirectURI: redirectURI) else {
            throw .page(.redirectURIMismatch)
        }
        if repeated == "client_id" || repeated == "redirect_uri" { throw .page(.redirectURIMismatch) }
        let state = values["state"]
        func refuse(_ code: AuthorizationError.Code, _ description: String) -> AuthorizationError {
            .redirect(
                AuthorizationError.Redirect(
                    redirectURI: redirectURI, code: code, description: description,
                    state: state.map { String($0.prefix(maxValueLength)) }))
        }
        if let repeated { throw refuse(.invalidRequest, "\(repeated) is given more than once.") }
        if values["request"] != nil { throw refuse(.requestNotSupported, "Request objects are not supported.") }
        if values["request_uri"] != nil { throw refuse(.requestURINotSupported, "request_uri is not supported.") }
        guard values["response_type"] == "code" else {
            throw refuse(.unsupportedResponseType, "Only response_type=code is supported.")
        }
        if let mode = values["response_mode"], mode != "query" {
            throw refuse(.invalidRequest, "Only response_mode=query is supported.")
        }
        let scopes = Scope.known(in: values["scope"] ?? "")
        guard scopes.contains(.openid) else { throw refuse(.invalidScope, "The scope must include openid.") }
        for (name, value) in [("state", state), ("nonce", values["nonce"])] {
            if let value, value.unicodeScalars.count > maxValueLength || value.isEmpty {
                throw refuse(.invalidRequest, "\(name) must be 1 to \(maxValueLength) characters.")
            }
        }
        let challenge = values["code_challenge"]
        switch (challenge, values["code_challenge_method"]) {
        case (nil, nil):
            if client.isPublic { throw refuse(.invalidRequest, "A public client must use PKCE (S256).") }
        case (let challenge?, "S256"):
            guard PKCE.isWellFormedChallenge(challenge) else {
                throw refuse(.invalidRequest, "code_challenge must be an S256 challenge (43 base64url characters).")
            }
        case (_?, nil), (_?, "plain"):
            throw refuse(.invalidRequest, "code_challenge_method must be S256 (plain is not supported).")
        default:
            throw refuse(.invalidRequest, "code_challenge_method must be S256, with a code_challenge.")
        }
        let prompts = Set((values["prompt"] ?? "").split(separator: " ").map(String.init))
        if prompts.contains("none"), prompts.count > 1 {
            throw refuse(.invalidRequest, "prompt=none cannot be combined with other values.")
        }
        var maxAge: Int?
        if let text = values["max_age"] {
            guard let seconds = Int(text), seconds >= 0 else {
                throw refuse(.invalidRequest, "max_age must be a whole number of seconds.")
            }
            maxAge = seconds
        }
        let acrValues = values["acr_values"] ?? ""
        guard acrValues.utf8.count <= maxValueLength else {
            throw refuse(.invalidRequest, "acr_values is too long.")
        }
        return AuthorizationRequest(
            client: client, redirectURI: redirectURI,
            scopes: scopes, state: state, nonce: values["nonce"],
            codeChallenge: challenge,
            prompt: Prompt(
                none: prompts.contains("none"), login: prompts.contains("login"), consent: prompts.contains("consent")),
            maxAge: maxAge,
            loginHint: values["login_hint"].map { String($0.prefix(64)) },
            asksFreshProof: !acrValues.trimmingCharacters(in: .whitespaces).isEmpty)
    }
}

/// Why an authorization request is refused, and how.
public enum AuthorizationError: Error, Equatable, Sendable {
    /// Shown as a page on this site: sending the person to an address the client never
    /// registered would make this provider an open redirector.
    case page(PageReason)
    /// Sent back to the client's redirect URI with `error`, `error_description`, `state` and `iss`.
    case redirect(Redirect)

    public enum PageReason: Sendable, Equatable {
        case unknownClient
        case redirectURIMismatch
    }

    /// RFC 6749 §4.1.2.1 and OpenID Connect Core §3.1.2.6's error codes.
    public enum Code: String, Sendable, Equatable {
        case invalidRequest = "invalid_request"
        case unsupportedResponseType = "unsupported_response_type"
        case invalidScope = "invalid_scope"
        case accessDenied = "access_denied"
        case loginRequired = "login_required"
        case consentRequired = "consent_required"
        case requestNotSupported = "request_not_supported"
        case requestURINotSupported = "request_uri_not_supported"
    }

    public struct Redirect: Sendable, Equatable {
        public let redirectURI: String
        public let code: Code
        public let description: String
        public let state: String?

        public init(redirectURI: String, code: Code, description: String, state: String?) {
            self.redirectURI = redirectURI
            self.code = code
            self.description = description
            self.state = state
        }

        /// The address to send the person to (with `iss`, RFC 9207).
        public func url(issuer: String) -> String {
            AuthorizationResponse.url(
                redirectURI,
                [("error", code.rawValue), ("error_description", description)]
                    + (state.map { [("state", $0)] } ?? []) + [("iss", issuer)])
        }
    }
}

/// The redirect back to the client.
public enum AuthorizationResponse {
    /// `redirectURI` with `parameters` added to its query.
    public static func url(_ redirectURI: String, _ parameters: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{0}"..."\u{7F}"))
        allowed.insert(charactersIn: "-._~")
        let query = parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return redirectURI + (redirectURI.contains("?") ? "&" : "?") + query
    }

    /// The success: `code`, `state` and `iss`.
    public static func success(_ request: AuthorizationRequest, code: String, issuer: String) -> String {
        url(request.redirectURI, [("code", code)] + (request.state.map { [("state", $0)] } ?? []) + [("iss", issuer)])
    }
}
