import Foundation
import Logging
import TestSupport
import WebAuthnCore

@testable import AuthCore

/// A sign-in service by text and a passkey service on one database, with one clock, for the
/// passkey suites.
struct PasskeyFixture {
    let sms: ServiceFixture
    let passkeys: PasskeyService

    init(_ database: TestDatabase, site: RelyingParty, policy: SignInPolicy = SignInPolicy()) {
        sms = ServiceFixture(database, policy: policy)
        let clock = sms.clock
        passkeys = PasskeyService(
            relyingParty: site, store: database.auth, policy: policy, logger: Logger(label: "test"),
            clock: { clock.now })
    }

    /// Signs in by text; returns the signed-in session.
    func signIn(_ phone: String = "(530) 555-0123") async throws -> SignInService.SignedIn {
        let pending = try await sms.service.requestCode(phoneInput: phone, session: nil)
        return try await sms.service.verify(
            session: pending.session, pendingFor: pending.phone, codeInput: sms.sms.lastCode!)
    }

    /// Creates a passkey for the signed-in person on `authenticator`.
    func register(_ authenticator: inout SoftwareAuthenticator, for signedIn: SignInService.SignedIn)
        async throws -> String
    {
        let options = try await passkeys.creationOptions(for: signedIn.user, session: signedIn.session)
        let answer = authenticator.register(challenge: options.challenge, userHandle: options.user.id)
        return try await passkeys.register(answer, for: signedIn.user, session: signedIn.session, browser: "Chrome")
            .name
    }

    /// A sign-in challenge and the authenticator's answer to it.
    func answer(_ authenticator: inout SoftwareAuthenticator, client: String? = nil) async throws -> (
        SessionToken, Data
    ) {
        let challenge = try await passkeys.signInOptions(client: client)
        return (challenge.token, authenticator.signIn(challenge: challenge.options.challenge))
    }
}

/// What the passkey suites share: the site (the relying party on localhost) and ``PasskeyFixture``.
protocol PasskeySteps {}

extension PasskeySteps {
    typealias Fixture = PasskeyFixture

    var site: RelyingParty { RelyingParty(id: "localhost", origin: "http://localhost:8080") }
}
