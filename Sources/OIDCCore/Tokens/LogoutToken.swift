import Foundation
import JWTKit

/// The logout token of OpenID Connect Back-Channel Logout 1.0 (§2.4): posted to a client's
/// `backchannel_logout_uri` when a person's session ends, so the app ends its own. It names the
/// person (`sub`, as in their ID tokens) and, for one session's end, the session (`sid`, as in
/// the ID tokens it was issued from); without `sid`, every session of the person ends.
/// It carries the back-channel logout event and never a `nonce`; it is typed `logout+jwt`
/// (§2.4) and signed as the client's ID tokens are.
public struct LogoutToken: JWTPayload, Equatable {
    public static let event = "http://schemas.openid.net/event/backchannel-logout"
    /// How long an app may take to use it (§2.6 asks for a short life).
    public static let lifetime: TimeInterval = 120

    public let iss: IssuerClaim
    public let sub: SubjectClaim
    public let aud: AudienceClaim
    public let iat: IssuedAtClaim
    public let exp: ExpirationClaim
    public let jti: IDClaim
    public let sid: String?
    public let events: [String: [String: String]]

    public init(iss: String, sub: String, aud: String, sid: String?, iat: Date, jti: String) {
        self.iss = IssuerClaim(value: iss)
        self.sub = SubjectClaim(value: sub)
        self.aud = AudienceClaim(value: aud)
        self.iat = IssuedAtClaim(value: iat)
        self.exp = ExpirationClaim(value: iat.addingTimeInterval(Self.lifetime))
        self.jti = IDClaim(value: jti)
        self.sid = sid
        self.events = [Self.event: [:]]
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
