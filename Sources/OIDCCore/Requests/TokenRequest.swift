import Foundation

/// A token request (RFC 6749 §4.1.3 and §6), its client authenticated and its parameters
/// checked, before any code or refresh token is looked at.
public struct TokenRequest: Sendable, Equatable {
    public enum Grant: Sendable, Equatable {
        case authorizationCode(code: String, redirectURI: String, verifier: String?)
        /// `scopes`: those of the request's `scope` this provider knows (nil: none was given).
        case refreshToken(String, scopes: [Scope]?)
    }

    public let client: OIDCClient
    public let grant: Grant

    /// `form`: the body's parameters (each at most once); `authorization`: the header, for
    /// `client_secret_basic`. A confidential client authenticates by exactly one method; a
    /// public one only names itself (`client_id`).
    public static func parse(_ form: [(String, String)], authorization: String?, registry: ClientRegistry)
        throws(TokenError) -> TokenRequest
    {
        var values: [String: String] = [:]
        for (name, value) in form {
            if values[name] != nil { throw TokenError(.invalidRequest, "\(name) is given more than once.") }
            values[name] = value
        }
        let client = try authenticate(values, authorization: authorization, registry: registry)
        switch values["grant_type"] {
        case "authorization_code":
            guard let code = values["code"], !code.isEmpty else {
                throw TokenError(.invalidRequest, "code is missing.")
            }
            guard let redirectURI = values["redirect_uri"] else {
                throw TokenError(.invalidRequest, "redirect_uri is missing.")
            }
            return TokenRequest(
                client: client,
                grant: .authorizationCode(code: code, redirectURI: redirectURI, verifier: values["code_verifier"]))
        case "refresh_token":
            guard let token = values["refresh_token"], !token.isEmpty else {
                throw TokenError(.invalidRequest, "refresh_token is missing.")
            }
            return TokenRequest(
                client: client,
                grant: .refreshToken(token, scopes: values["scope"].map(Scope.known(in:))))
        case nil:
            throw TokenError(.invalidRequest, "grant_type is missing.")
        default:
            throw TokenError(.unsupportedGrantType, "Only authorization_code and refresh_token are supported.")
        }
    }

    /// The client a token request names (in `client_id`, or in Basic credentials), to read it
    /// before the request is checked; nil when it names none that can be read.
    public static func claimedClientID(_ form: [(String, String)], authorization: String?) -> String? {
        if let basic = try? basicCredentials(authorization) { return basic.id }
        return form.first { $0.0 == "client_id" }?.1
    }

    /// RFC 6749 §2.3.1: each part form-urlencoded, then base64 of "id:secret"; nil without a
    /// Basic header.
    private static func basicCredentials(_ authorization: String?) throws(TokenError) -> (id: String, secret: String)? {
        guard let authorization, authorization.lowercased().hasPrefix("basic ") else { return nil }
        guard
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":"),
            let id = formDecoded(String(text[..<colon])),
            let secret = formDecoded(String(text[text.index(after: colon)...]))
        else {
            throw TokenError(.invalidClient, "The Authorization header is not Basic client credentials.", basic: true)
        }
        return (id, secret)
    }

    private static func authenticate(_ values: [String: String], authorization: String?, registry: ClientRegistry)
        throws(TokenError) -> OIDCClient
    {
        let basic = try basicCredentials(authorization)
        if basic != nil, values["client_secret"] != nil {
            throw TokenError(.invalidRequest, "Authenticate by one method only.")
        }
        if let basic, let formID = values["client_id"], formID != basic.id {
            throw TokenError(.invalidRequest, "client_id does not match the Authorization header.")
        }
        guard let id = basic?.id ?? values["client_id"], let client = registry[id] else {
            throw TokenError(.invalidClient, "Unknown client.", basic: basic != nil)
        }
        if client.isPublic {
            guard basic == nil, values["client_secret"] == nil else {
                throw TokenError(.invalidClient, "This client is public: it has no secret.", basic: basic != nil)
            }
            return client
        }
        guard let secret = basic?.secret ?? values["client_secret"], client.accepts(secret: secret) else {
            throw TokenError(.invalidClient, "Client authentication failed.", basic: basic != nil)
        }
        return client
    }

    static func formDecoded(_ text: String) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// A token endpoint refusal (RFC 6749 §5.2): JSON `{"error", "error_description"}`, 400, or 401
/// for a client that failed to authenticate (with `WWW-Authenticate: Basic` when it tried Basic).
public struct TokenError: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
        case invalidRequest = "invalid_request"
        case invalidClient = "invalid_client"
        case invalidGrant = "invalid_grant"
        case unauthorizedClient = "unauthorized_client"
        case unsupportedGrantType = "unsupported_grant_type"
        case invalidScope = "invalid_scope"
    }

    public let code: Code
    public let description: String
    /// The client tried `client_secret_basic`.
    public let basic: Bool

    public init(_ code: Code, _ description: String, basic: Bool = false) {
        self.code = code
        self.description = description
        self.basic = basic
    }

    public var status: Int { code == .invalidClient ? 401 : 400 }
}
