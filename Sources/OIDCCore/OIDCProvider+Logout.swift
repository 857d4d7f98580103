import EventsCore
import Foundation

extension OIDCProvider {
    /// The logout token telling `client` that `event` ended a person's session there, signed as
    /// its ID tokens are; nil when the event ends nothing at that app (``BackChannelLogout``).
    /// A session's end is told only to an app the session signed in to; a deletion or a
    /// disconnection names the person (`sub`) and every session of theirs ends.
    public func logoutToken(for event: Event, to client: OIDCClient) async throws -> String? {
        guard client.backchannelLogoutURI != nil, let ending = BackChannelLogout.ending(event, at: client) else {
            return nil
        }
        let user: Int64
        let sid: String?
        switch ending {
        case .session(let session):
            guard let owner = try await store.userOfSession(sid: session, client: client.id) else { return nil }
            (user, sid) = (owner, session)
        case .person(let person):
            (user, sid) = (person, nil)
        }
        let token = LogoutToken(
            iss: issuer, sub: subject(of: user), aud: client.id, sid: sid,
            iat: Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down)), jti: Self.randomToken())
        return client.idTokenRS256
            ? try await signer.signRS256(token, type: "logout+jwt") : try await signer.sign(token, type: "logout+jwt")
    }
}
