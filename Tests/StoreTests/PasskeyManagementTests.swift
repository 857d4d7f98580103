import ConsoleCore
import Crypto
import Encodings
import Foundation
import Logging
import Testing
import TestSupport
import WebAuthnCore

@testable import AuthCore
/// Passkeys on every backend (issue 27) beyond signing in: a registration bound to the session
/// that asked, the limits per client, and renaming and removing one's own.
@Suite("Passkeys: registration, limits and management")
struct PasskeyManagementTests: PasskeySteps {
    @Test(
        "registration: bound to the session that asked, once per credential, at most 20; a 1 MB answer refused",
        arguments: Backend.all)
    func registrationRules(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            let person = try await f.signIn()
            let elsewhere = try await f.signIn()
            var authenticator = SoftwareAuthenticator()
            let options = try await f.passkeys.creationOptions(for: person.user, session: person.session)
            let answer = authenticator.register(challenge: options.challenge, userHandle: options.user.id)
            await #expect(throws: PasskeyError.challengeExpired) {
                try await f.passkeys.register(answer, for: person.user, session: elsewhere.session, browser: "x")
            }
            _ = try await f.register(&authenticator, for: person)
            await #expect(throws: PasskeyError.alreadyRegistered) {
                try await f.register(&authenticator, for: person)
            }
            // Another person may not take the credential id either.
            let other = try await f.signIn("(415) 555-0199")
            await #expect(throws: PasskeyError.alreadyRegistered) { try await f.register(&authenticator, for: other) }
            // The same handle for every passkey of a person, never another's.
            let second = try await f.passkeys.creationOptions(for: person.user, session: person.session)
            #expect(second.user.id == options.user.id)
            #expect(second.excludeCredentials.map(\.id) == [Base64URL.encode(authenticator.credentialID)])
            let otherOptions = try await f.passkeys.creationOptions(for: other.user, session: other.session)
            #expect(otherOptions.user.id != options.user.id)
            for _ in 1..<SignInRules.maxPasskeysPerUser {
                var more = SoftwareAuthenticator()
                _ = try await f.register(&more, for: person)
            }
            await #expect(throws: PasskeyError.tooMany) {
                try await f.passkeys.creationOptions(for: person.user, session: person.session)
            }
            let huge =
                Data(#"{"id":"AA","type":"public-key","response":{"clientDataJSON":""#.utf8)
                + Data(repeating: UInt8(ascii: "A"), count: 1_000_000) + Data(#"","attestationObject":""}}"#.utf8)
            await #expect(throws: PasskeyError.self) {
                try await f.passkeys.register(huge, for: other.user, session: other.session, browser: "x")
            }
        }
    }

    @Test(
        "each answer counts as a sign-in the client started, up to its limit; a client holds at most 30 challenges",
        arguments: Backend.all)
    func clientLimits(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxSignInsPerClient = 2
            let f = Fixture(database, site: site, policy: policy)
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: try await f.signIn())
            let client = "203.0.113.9"
            #expect(try await database.count("sign_in_starts") == 0)
            for _ in 0..<2 {
                let (token, answer) = try await f.answer(&authenticator, client: client)
                _ = try await f.passkeys.signIn(answer, token: token, client: client)
            }
            // Asking counted nothing; the answers did.
            #expect(try await database.count("sign_in_starts") == 2)
            let (token, answer) = try await f.answer(&authenticator, client: client)
            await #expect(throws: SignInError.self) {
                try await f.passkeys.signIn(answer, token: token, client: client)
            }
            // Another client is not held back by this one.
            _ = try await f.passkeys.signIn(answer, token: token, client: "203.0.113.10")
            // Challenges: 30 unanswered ones at most per client, for their 5 minutes.
            let flood = "198.51.100.99"
            for _ in 0..<policy.maxPasskeyChallengesPerClient {
                _ = try await f.passkeys.signInOptions(client: flood)
            }
            await #expect(throws: PasskeyError.tooManyRequests(seconds: 300)) {
                try await f.passkeys.signInOptions(client: flood)
            }
            f.sms.clock.advance(by: 301)
            _ = try await f.passkeys.signInOptions(client: flood)
        }
    }

    @Test(
        "rename and remove: only one's own passkeys; removing ends nothing else; 'Not now' is kept",
        arguments: Backend.all)
    func manage(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = Fixture(database, site: site)
            let person = try await f.signIn()
            let other = try await f.signIn("(415) 555-0199")
            var authenticator = SoftwareAuthenticator()
            _ = try await f.register(&authenticator, for: person)
            let id = try #require(try await f.passkeys.passkeys(of: person.user).passkeys.first?.id)
            try await f.passkeys.rename(id, of: person.user, to: "  My phone  ")
            #expect(try await f.passkeys.passkeys(of: person.user).passkeys.first?.name == "My phone")
            for bad in ["", "   ", String(repeating: "x", count: 65), "a\u{0}b", "line\nbreak", "\u{202E}evil"] {
                await #expect(throws: PasskeyError.badName, "\(bad.debugDescription)") {
                    try await f.passkeys.rename(id, of: person.user, to: bad)
                }
            }
            await #expect(throws: PasskeyError.noSuchPasskey) {
                try await f.passkeys.rename(id, of: other.user, to: "x")
            }
            await #expect(throws: PasskeyError.noSuchPasskey) { try await f.passkeys.remove(id, of: other.user) }
            try await f.passkeys.remove(id, of: person.user)
            #expect(try await f.passkeys.passkeys(of: person.user).passkeys.isEmpty)
            #expect(try await f.sms.service.state(of: person.session) == .signedIn(person.user))
            #expect(try await f.passkeys.offers(to: other.user))
            try await f.passkeys.dismissOffer(for: other.user)
            #expect(try await f.passkeys.offers(to: other.user) == false)
        }
    }
}
