import ConsoleCore
import Crypto
import Encodings
import Foundation
import Logging
import Testing
import TestSupport
import WebAuthnCore

@testable import AuthCore

/// Passkeys on every backend (issue 27): created after a sign-in by text, then signing in with no
/// text; and each attack of the issue refused with the database's help: a replayed assertion, a
/// challenge from another browser or past its 5 minutes, another person's credential, a counter
/// going back (which turns the passkey off), UV false, another site's origin.
@Suite("Passkeys")
struct PasskeyTests: PasskeySteps {
    @Test(
        "a passkey made after a text signs in with no text: a fresh session, the counter kept", arguments: Backend.all)
    func signsIn(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            let first = try await f.signIn()
            #expect(try await f.passkeys.offers(to: first.user))
            var authenticator = SoftwareAuthenticator()
            #expect(try await f.register(&authenticator, for: first) == "iCloud Keychain")
            #expect(try await f.passkeys.offers(to: first.user) == false)
            f.sms.clock.advance(by: 60)
            let (token, answer) = try await f.answer(&authenticator, client: "198.51.100.7")
            let signedIn = try await f.passkeys.signIn(
                answer, token: token, client: "198.51.100.7", userAgent: "Safari")
            #expect(signedIn.user == first.user)
            #expect(signedIn.session != first.session)
            #expect(try await f.sms.service.state(of: signedIn.session) == .signedIn(first.user))
            #expect(f.sms.sms.sent.count == 1)
            let stored = try #require(try await f.passkeys.passkeys(of: first.user).passkeys.first)
            #expect(stored.signCount == 1 && stored.lastUsedAt != nil && stored.flaggedAt == nil)
            // The sign-in counted as one the client started.
            #expect(try await database.count("sign_in_starts") == 1)
        }
    }

    @Test("a replayed assertion, and a challenge from another browser, are refused", arguments: Backend.all)
    func replayAndAnotherBrowser(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: try await f.signIn())
            let (token, answer) = try await f.answer(&authenticator)
            _ = try await f.passkeys.signIn(answer, token: token)
            await #expect(throws: PasskeyError.challengeExpired) {
                try await f.passkeys.signIn(answer, token: token)
            }
            // Browser B's token with the answer to browser A's challenge finds no challenge.
            let (tokenA, answerA) = try await f.answer(&authenticator)
            let tokenB = try await f.passkeys.signInOptions(client: nil).token
            await #expect(throws: PasskeyError.challengeExpired) {
                try await f.passkeys.signIn(answerA, token: tokenB)
            }
            // A's still works, once.
            _ = try await f.passkeys.signIn(answerA, token: tokenA)
            await #expect(throws: PasskeyError.challengeExpired) { try await f.passkeys.signIn(answerA, token: tokenA) }
        }
    }

    @Test("one browser, two Login tabs: each tab's challenge is answered on its own", arguments: Backend.all)
    func twoTabs(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: try await f.signIn())
            let first = try await f.passkeys.signInOptions(client: nil)
            let second = try await f.passkeys.signInOptions(client: nil, token: first.token)
            #expect(second.token == first.token)
            let answerFirst = authenticator.signIn(challenge: first.options.challenge)
            let answerSecond = authenticator.signIn(challenge: second.options.challenge)
            _ = try await f.passkeys.signIn(answerFirst, token: first.token)
            _ = try await f.passkeys.signIn(answerSecond, token: second.token)
        }
    }

    @Test("an Android app's origin is taken only for a configured app", arguments: Backend.all)
    func androidOrigin(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let hash = [UInt8](repeating: 0xAB, count: 32)
            let app = RelyingParty.androidOrigin(certificateSHA256: hash)
            let site = RelyingParty(id: "localhost", origin: "http://localhost:8080", appOrigins: [app])
            let f = Fixture(database, site: site)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: try await f.signIn())
            let challenge = try await f.passkeys.signInOptions(client: nil)
            _ = try await f.passkeys.signIn(
                authenticator.signIn(challenge: challenge.options.challenge, origin: app), token: challenge.token)
            let other = try await f.passkeys.signInOptions(client: nil)
            let stranger = RelyingParty.androidOrigin(certificateSHA256: [UInt8](repeating: 0xCD, count: 32))
            await #expect(throws: PasskeyError.refused(.wrongOrigin)) {
                try await f.passkeys.signIn(
                    authenticator.signIn(challenge: other.options.challenge, origin: stranger), token: other.token)
            }
        }
    }

    @Test("a challenge answered after 5 minutes is refused", arguments: Backend.all)
    func expired(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: try await f.signIn())
            let (token, answer) = try await f.answer(&authenticator)
            f.sms.clock.advance(by: 301)
            await #expect(throws: PasskeyError.challengeExpired) { try await f.passkeys.signIn(answer, token: token) }
            // One never answered is purged once expired.
            _ = try await f.passkeys.signInOptions(client: nil)
            #expect(try await database.count("passkey_challenges") == 1)
            f.sms.clock.advance(by: 301)
            _ = try await f.sms.service.purgeExpired()
            #expect(try await database.count("passkey_challenges") == 0)
        }
    }

    @Test("another person's credential with one's own user handle is refused", arguments: Backend.all)
    func anotherPersonsCredential(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            var alice = SoftwareAuthenticator()
            _ = try await f.register(&alice, for: try await f.signIn("(530) 555-0123"))
            var mallory = SoftwareAuthenticator()
            _ = try await f.register(&mallory, for: try await f.signIn("(415) 555-0199"))
            let challenge = try await f.passkeys.signInOptions(client: nil)
            let answer = alice.signIn(challenge: challenge.options.challenge, userHandle: mallory.userHandle)
            await #expect(throws: PasskeyError.notYours) {
                try await f.passkeys.signIn(answer, token: challenge.token)
            }
        }
    }

    @Test(
        "a counter that goes back refuses the sign-in and turns the passkey off; UV false, another origin and another key's signature are refused",
        arguments: Backend.all)
    func counterAndFlags(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            let person = try await f.signIn()
            // The console's door reads, with the session, whether its person has a live passkey.
            let operators = Operators([try PhoneNumber(parsing: "(530) 555-0123")])
            let door = {
                try await database.console.sessionAndPasskey(session: person.session.storageKey, operators: operators)
            }
            #expect(try await door().session?.userID == person.user.id)
            #expect(try await door().hasPasskey == false)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: person)
            #expect(try await door().hasPasskey == true)
            // Asked of operators only: for anyone else the door reads the session alone.
            #expect(
                try await database.console.sessionAndPasskey(session: person.session.storageKey, operators: Operators([]))
                    .hasPasskey == false)
            for (attack, failure) in [
                ("UV false", PasskeyError.refused(.userNotVerified)), ("origin", .refused(.wrongOrigin)),
                ("key", .refused(.badSignature)),
            ] {
                let challenge = try await f.passkeys.signInOptions(client: nil)
                let c = challenge.options.challenge
                let answer =
                    switch attack {
                    case "UV false": authenticator.signIn(challenge: c, flags: 0x01)
                    case "origin": authenticator.signIn(challenge: c, origin: "https://evil.example")
                    default: authenticator.signIn(challenge: c, signer: P256.Signing.PrivateKey())
                    }
                await #expect(throws: failure, "\(attack)") {
                    try await f.passkeys.signIn(answer, token: challenge.token)
                }
            }
            let (token, answer) = try await f.answer(&authenticator)
            _ = try await f.passkeys.signIn(answer, token: token)
            let challenge = try await f.passkeys.signInOptions(client: nil)
            let cloned = authenticator.signIn(challenge: challenge.options.challenge, count: 1)
            await #expect(throws: PasskeyError.counterWentBack) {
                try await f.passkeys.signIn(cloned, token: challenge.token)
            }
            #expect(try await f.passkeys.passkeys(of: person.user).passkeys.first?.flaggedAt != nil)
            #expect(try await door().hasPasskey == false)  // turned off: the console is shut to it
            #expect(
                try await database.console.sessionAndPasskey(session: SessionToken.generate().storageKey, operators: operators)
                    .session == nil)
            let (again, good) = try await f.answer(&authenticator)
            await #expect(throws: PasskeyError.turnedOff) { try await f.passkeys.signIn(good, token: again) }
        }
    }
}
