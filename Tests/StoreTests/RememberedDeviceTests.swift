import Foundation
import Testing

@testable import AuthCore

/// The returning device of the original app: a browser remembered at sign-in goes straight to
/// Home when the same number is typed again, without a text.
@Suite("Remembered devices")
struct RememberedDeviceTests {
    let phoneText = "(530) 555-0123"

    /// Signs in with a code, asking to remember the browser; returns the device token.
    func rememberedSignIn(_ f: ServiceFixture, phone: String = "(530) 555-0123") async throws -> SessionToken {
        let pending = try await f.service.requestCode(phoneInput: phone, session: nil)
        let signedIn = try await f.service.verify(
            session: pending.session, pendingFor: pending.phone, codeInput: f.sms.lastCode!, rememberDevice: true)
        return try #require(signedIn.device)
    }

    @Test(
        "the same number on a remembered device signs in with no text; the token is rotated at each use",
        arguments: Backend.all)
    func sameNumber(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let device = try await rememberedSignIn(f)
            #expect(try await f.database.count("devices") == 1)
            f.clock.advance(by: 3600)
            let again = try #require(
                try await f.service.signInRemembered(phoneInput: "5305550123", device: device, replacing: nil))
            #expect(again.user.phone.e164 == "+15305550123")
            #expect(try await f.service.state(of: again.session) == .signedIn(again.user))
            let rotated = try #require(again.device)
            #expect(rotated != device)
            // Nothing was sent or counted.
            #expect(f.sms.sent.count == 1)
            #expect(try await f.database.count("code_sends") == 1)
            // The old token no longer works; the new one does.
            #expect(try await f.service.signInRemembered(phoneInput: phoneText, device: device, replacing: nil) == nil)
            #expect(try await f.service.signInRemembered(phoneInput: phoneText, device: rotated, replacing: nil) != nil)
            #expect(try await f.database.count("devices") == 1)
        }
    }

    @Test(
        "another number, a device past its 30 days, an unknown token: the code flow, nothing changed",
        arguments: Backend.all)
    func notRemembered(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let device = try await rememberedSignIn(f)
            #expect(
                try await f.service.signInRemembered(phoneInput: "4155550199", device: device, replacing: nil) == nil)
            #expect(
                try await f.service.signInRemembered(
                    phoneInput: phoneText, device: SessionToken.generate(), replacing: nil) == nil)
            // Use does not extend it: 30 days after the sign-in that remembered it, it is over.
            f.clock.advance(by: 29 * 86_400)
            let used = try #require(
                try await f.service.signInRemembered(phoneInput: phoneText, device: device, replacing: nil))
            f.clock.advance(by: 86_400)
            #expect(
                try await f.service.signInRemembered(phoneInput: phoneText, device: used.device!, replacing: nil)
                    == nil)
            #expect(f.sms.sent.count == 1)
        }
    }

    @Test(
        "a user agent of 512 flags (1,024 code points) signs in and is remembered, kept to its first 512 bytes, on every backend",
        arguments: Backend.all)
    func longUserAgent(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            // Swift counts each flag as one character; the columns' CHECKs count code points.
            let agent = String(repeating: "🇺🇸", count: 512)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let signedIn = try await f.service.verify(
                session: pending.session, pendingFor: pending.phone, codeInput: f.sms.lastCode!, rememberDevice: true,
                userAgent: agent)
            let places = try await f.service.places(of: signedIn.user)
            let kept = String(repeating: "🇺🇸", count: 64)
            #expect(places.sessions.map(\.userAgent) == [kept])
            #expect(places.devices.map(\.userAgent) == [kept])
        }
    }

    @Test("without asking to be remembered, no device is stored", arguments: Backend.all)
    func notAsked(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let signedIn = try await f.service.verify(
                session: pending.session, pendingFor: pending.phone, codeInput: f.sms.lastCode!)
            #expect(signedIn.device == nil)
            #expect(try await f.database.count("devices") == 0)
        }
    }

    @Test("someone else's wrong codes lock the number, but not its owner's remembered device", arguments: Backend.all)
    func lockExemption(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxFailuresPerPhone = 5
            policy.maxCodesPerPhone = 100
            let f = ServiceFixture(database, policy: policy)
            let device = try await rememberedSignIn(f)
            // A stranger asks for codes to the number and types wrong ones until it locks.
            var locked = false
            for _ in 0..<4 where !locked {
                f.clock.advance(by: 31)
                // Once locked, the number gets no more codes (issue 18): that is the lock too.
                let stranger: SignInService.PendingSignIn
                do {
                    stranger = try await f.service.requestCode(phoneInput: phoneText, session: nil)
                } catch SignInError.phoneLocked {
                    locked = true
                    continue
                }
                for _ in 0..<5 {
                    do {
                        _ = try await f.service.verify(session: stranger.session, codeInput: f.wrongCode())
                    } catch SignInError.phoneLocked {
                        locked = true
                    } catch {}
                }
            }
            #expect(locked)
            let owner = try await f.service.signInRemembered(phoneInput: phoneText, device: device, replacing: nil)
            #expect(owner?.user.phone.e164 == "+15305550123")
        }
    }

    @Test(
        "a remembered device holds one session: each sign-in on it ends the one its last sign-in made",
        arguments: Backend.all)
    func oneSessionPerDevice(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            var device = try await rememberedSignIn(f)
            var last: SessionToken?
            for _ in 0..<5 {
                let again = try #require(
                    try await f.service.signInRemembered(phoneInput: phoneText, device: device, replacing: nil))
                device = try #require(again.device)
                last = again.session
            }
            #expect(try await f.database.count("sessions") == 1)
            let user = try #require(try await f.service.state(of: last!))
            #expect(user != .pending(try PhoneNumber(parsing: phoneText)))
        }
    }
}
