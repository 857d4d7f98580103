import Encodings
import EventsCore
import Foundation
import JWTKit
import Testing

@testable import AuthCore
@testable import OIDCCore

/// OpenID Connect back-channel logout on every backend: the ID tokens name the browser session,
/// and its end (or the person's) is told to the app it signed in to, as a signed logout token.
@Suite("OpenID Connect provider: back-channel logout")
struct OIDCLogoutTests: OIDCProviderFixture {

    @Test(
        "back-channel logout: the ID tokens name the browser session (sid); its end is told to the app it signed in to, with the same sub and sid, signed and typed logout+jwt; another session's end, an app without a logout address or another app's disconnection tells nothing; a deletion or a disconnection names the person",
        arguments: Backend.all)
    func backchannelLogout(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let provider = await provider(database, clock: TestClock())
            let session = SessionToken.generate()
            let sid = SessionToken.sid(ofStorageKey: session.storageKey)
            #expect(sid.count == 32 && sid != SignedInPlaces.publicID(of: session.storageKey))
            let (person, url) = try await signedIn(provider, database, client: "notes", sid: sid)
            let tokens = try await provider.token(try tokenRequest("notes", try code(from: url)))
            let id = try await provider.signer.verify(tokens.id_token, as: IDToken.self)
            #expect(id.sid == sid)
            let refreshed = try await provider.token(
                try TokenRequest.parse(
                    [("grant_type", "refresh_token"), ("refresh_token", try #require(tokens.refresh_token)),
                     ("client_id", "notes")], authorization: nil, registry: registry))
            #expect(try await provider.signer.verify(refreshed.id_token, as: IDToken.self).sid == sid)

            let notes = try #require(registry["notes"])
            let ended = Event(.signedOut, at: 1, user: person.userID, detail: "signed_out", reference: sid)
            let token = try #require(try await provider.logoutToken(for: ended, to: notes))
            let logout = try await provider.signer.verify(token, as: LogoutToken.self)
            #expect(logout.sub.value == id.sub.value && logout.sid == sid && logout.aud.value == ["notes"])
            #expect(logout.iss.value == Self.issuer && logout.events == [LogoutToken.event: [:]])
            func part(_ index: Int) throws -> [String: Any] {
                let data = try #require(Data(base64URLEncoded: String(token.split(separator: ".")[index])))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            #expect(try part(0)["typ"] as? String == "logout+jwt")
            #expect(Set(try part(1).keys) == ["iss", "sub", "aud", "iat", "exp", "jti", "sid", "events"], "never a nonce")
            // Another browser session, an app with no logout address, another event: nothing.
            var elsewhere = ended
            elsewhere.reference = SessionToken.sid(ofStorageKey: SessionToken.generate().storageKey)
            #expect(try await provider.logoutToken(for: elsewhere, to: notes) == nil)
            #expect(try await provider.logoutToken(for: ended, to: try #require(registry["mobile"])) == nil)
            #expect(try await provider.logoutToken(for: Event(.codeSent, at: 1, user: person.userID), to: notes) == nil)
            #expect(
                try await provider.logoutToken(
                    for: Event(.appDisconnected, at: 1, user: person.userID, app: "grafana"), to: notes) == nil)
            // The person: every session of theirs at the app; a deletion only to the apps it names.
            for event in [
                Event(.accountDeleted, at: 1, user: person.userID, detail: "mobile notes"),
                Event(.appDisconnected, at: 1, user: person.userID, app: "notes"),
            ] {
                let everywhere = try await provider.signer.verify(
                    try #require(try await provider.logoutToken(for: event, to: notes)), as: LogoutToken.self)
                #expect(everywhere.sub.value == id.sub.value && everywhere.sid == nil)
            }
            for detail in [nil, "grafana", "notes2 mobile"] {
                let deleted = Event(.accountDeleted, at: 1, user: person.userID, detail: detail)
                #expect(try await provider.logoutToken(for: deleted, to: notes) == nil, "\(detail ?? "none")")
            }
            // Disconnected: told once (above), then nothing of its sessions.
            try await provider.disconnect(user: person.userID, client: "notes")
            #expect(try await provider.logoutToken(for: ended, to: notes) == nil)
        }
    }

    @Test(
        "back-channel logout outlives the purge: a grant naming a browser session is kept as long as the session can last, then goes",
        arguments: Backend.all)
    func backchannelLogoutAfterPurge(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let clock = TestClock()
            let provider = await provider(database, clock: clock)
            let sid = SessionToken.sid(ofStorageKey: SessionToken.generate().storageKey)
            // No refresh token: the grant is its code's only.
            let (person, url) = try await signedIn(provider, database, client: "notes", sid: sid, scope: "openid")
            _ = try await provider.token(try tokenRequest("notes", try code(from: url)))
            let ended = Event(.signedOut, at: 1, user: person.userID, detail: "expired", reference: sid)
            let notes = try #require(registry["notes"])
            clock.advance(by: 2 * 86_400)
            _ = try await provider.purge()
            #expect(try await provider.logoutToken(for: ended, to: notes) != nil, "kept past a day")
            clock.advance(by: 39 * 86_400)
            _ = try await provider.purge()
            #expect(try await provider.logoutToken(for: ended, to: notes) == nil, "gone after 40 days")
        }
    }
}
