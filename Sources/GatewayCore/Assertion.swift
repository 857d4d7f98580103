import JWTKit

/// What the gateway tells a protected app about the person (the `Phone-Login-Assertion`
/// header): a JWT signed ES256 with the key `/.well-known/jwks.json` lists, so the app can
/// verify who it is talking to instead of trusting a bare `Remote-User` header.
public struct Assertion: JWTPayload, Equatable {
    /// This app's public address (`--public-url`).
    public let iss: IssuerClaim
    /// The person's user id.
    public let sub: SubjectClaim
    /// The protected app's host name: an assertion for one app is refused by another.
    public let aud: AudienceClaim
    /// The person's number in E.164 (`+14155550100`), as OpenID Connect names it.
    public let phoneNumber: String
    /// The person's display name, when they set one.
    public let name: String?
    public let iat: IssuedAtClaim
    /// At most ``AssertionSigner/lifetime`` after `iat`.
    public let exp: ExpirationClaim

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, iat, exp, name
        case phoneNumber = "phone_number"
    }

    public init(
        iss: IssuerClaim, sub: SubjectClaim, aud: AudienceClaim, phoneNumber: String, name: String?,
        iat: IssuedAtClaim, exp: ExpirationClaim
    ) {
        (self.iss, self.sub, self.aud, self.phoneNumber, self.name) = (iss, sub, aud, phoneNumber, name)
        (self.iat, self.exp) = (iat, exp)
    }

    /// Expiry only: the issuer and audience are the verifier's to check (it knows its own name).
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
