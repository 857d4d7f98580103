import Foundation
import Testing

@testable import AuthCore

/// The JSON API's way through the same rules: send to a number, check the code with the number,
/// no pending session in between.
@Suite("Sign-in by number and code (API)")
struct APISignInTests {
    let phoneText = "(530) 555-0123"

    func sessionCount(_ f: ServiceFixture) async throws -> Int {
        try await f.database.count("sessions")
    }

    @Test("sendCode texts a code and makes no session; the right code with the number signs in", arguments: Backend.all)
    func happyPath(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let sent = try await f.service.sendCode(phoneInput: phoneText, client: "10.0.0.1")
            #expect(sent.sent)
            #expect(sent.phone.e164 == "+15305550123")
            #expect(f.sms.sent.count == 1)
            #expect(try await sessionCount(f) == 0)
            #expect(sent.codeExpiresAt.timeIntervalSince(f.clock.now) == 600)
            #expect(sent.resendAvailableAt.timeIntervalSince(f.clock.now) == 30)

            // Asked again at once: nothing new is sent, the code out is still the one.
            f.clock.advance(by: 10)
            let again = try await f.service.sendCode(phoneInput: "5305550123")
            #expect(!again.sent)
            #expect(again.resendAvailableAt.timeIntervalSince(f.clock.now) == 20)
            #expect(f.sms.sent.count == 1)

            let signedIn = try await f.service.verify(phoneInput: "+1 530 555 0123", codeInput: f.sms.lastCode!)
            #expect(signedIn.user.phone == sent.phone)
            #expect(try await f.service.state(of: signedIn.session) == .signedIn(signedIn.user))
            #expect(try await sessionCount(f) == 1)
            // Single use.
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(phoneInput: phoneText, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test("wrong codes count against the same limits as the pages", arguments: Backend.all)
    func limits(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.sendCode(phoneInput: phoneText)
            for _ in 1...4 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(phoneInput: phoneText, codeInput: f.wrongCode())
                }
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(phoneInput: phoneText, codeInput: f.wrongCode())
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(phoneInput: phoneText, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test("invalid numbers are refused before anything is sent or checked", arguments: Backend.all)
    func invalid(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await #expect(throws: SignInError.phone(.invalid)) { _ = try await f.service.sendCode(phoneInput: "911") }
            await #expect(throws: SignInError.phone(.empty)) {
                _ = try await f.service.verify(phoneInput: "", codeInput: "123456")
            }
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(phoneInput: phoneText, codeInput: "123456")
            }
            #expect(f.sms.sent.isEmpty)
        }
    }

    @Test(
        "a code asked for in the browser can be checked by the app, which ends the browser's attempt",
        arguments: Backend.all)
    func sharedCode(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let browser = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            _ = try await f.service.verify(phoneInput: phoneText, codeInput: f.sms.lastCode!)
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(session: browser.session, codeInput: f.sms.lastCode!)
            }
        }
    }
}
