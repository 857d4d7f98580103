import Foundation
import JWTKit

/// Signs and checks this provider's JWTs with the key set `/.well-known/jwks.json` publishes
/// (ES256, the gateway's keys and rotation; and an RSA key for the ID tokens of clients that ask
/// for RS256). Checking accepts only a token signed by one of those keys: `alg: none`, HS256 or
/// another key's token is refused.
public protocol TokenSigner: Sendable {
    var keyID: String { get }
    /// Whether it holds an RSA key (discovery then lists RS256).
    var signsRS256: Bool { get }
    func sign<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String
    /// Signs with the RSA key (RS256).
    func signRS256<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String
    func verify<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload
}

/// The ID token (OpenID Connect Core §2): who signed in, when and how, for which client.
public struct IDToken: JWTPayload, Equatable {
    public let iss: IssuerClaim
    public let sub: SubjectClaim
    public let aud: AudienceClaim
    public let exp: ExpirationClaim
    public let iat: IssuedAtClaim
    public let authTime: Int
    public let nonce: String?
    /// RFC 8176: `sms` for a texted code, `hwk` and `user` for a passkey; absent for a
    /// remembered browser.
    public let amr: [String]?
    public let azp: String
    public let phoneNumber: String?
    public let phoneNumberVerified: Bool?
    /// The browser session it was issued from (Back-Channel Logout's `sid`), when known.
    public let sid: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, amr, azp, sid
        case authTime = "auth_time"
        case phoneNumber = "phone_number"
        case phoneNumberVerified = "phone_number_verified"
    }

    public init(
        iss: String, sub: String, aud: String, exp: Date, iat: Date, authTime: Int, nonce: String?, amr: [String]?,
        phoneNumber: String?, sid: String? = nil
    ) {
        self.sid = sid
        self.iss = IssuerClaim(value: iss)
        self.sub = SubjectClaim(value: sub)
        self.aud = AudienceClaim(value: aud)
        self.exp = ExpirationClaim(value: exp)
        self.iat = IssuedAtClaim(value: iat)
        self.authTime = authTime
        self.nonce = nonce
        self.amr = amr
        self.azp = aud
        self.phoneNumber = phoneNumber
        self.phoneNumberVerified = phoneNumber.map { _ in true }
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// An ID token read as an end-session hint: its signature checked, its expiry not.
struct HintToken: JWTPayload {
    let token: IDToken

    init(from decoder: any Decoder) throws {
        token = try IDToken(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try token.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// An access token (RFC 9068's JWT profile): for `/oidc/userinfo` only. It names its grant's
/// family, so revoking the family (a code presented twice) ends it before it expires.
public struct AccessToken: JWTPayload, Equatable {
    public let iss: IssuerClaim
    public let sub: SubjectClaim
    public let aud: AudienceClaim
    public let exp: ExpirationClaim
    public let iat: IssuedAtClaim
    public let jti: IDClaim
    public let clientID: String
    public let scope: String
    /// The grant's family, hex.
    public let family: String

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, scope
        case clientID = "client_id"
        case family = "fam"
    }

    public init(
        iss: String, sub: String, clientID: String, exp: Date, iat: Date, scope: String, family: String, jti: String
    ) {
        self.iss = IssuerClaim(value: iss)
        self.sub = SubjectClaim(value: sub)
        self.aud = AudienceClaim(value: iss + "/oidc/userinfo")
        self.exp = ExpirationClaim(value: exp)
        self.iat = IssuedAtClaim(value: iat)
        self.jti = IDClaim(value: jti)
        self.clientID = clientID
        self.scope = scope
        self.family = family
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// The token endpoint's answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
public struct TokenResponse: Encodable, Sendable, Equatable {
    public let access_token: String
    public let token_type = "Bearer"
    public let expires_in: Int
    public let id_token: String
    public let refresh_token: String?
    public let scope: String
}
