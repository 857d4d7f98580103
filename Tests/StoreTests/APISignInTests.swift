import Foundation
import Testing

@testable import AuthCore

/// The JSON API's way through the same rules: send to a number, check the code with the number
/// and the `verification_id` given with it, no pending session in between.
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
            let id = try #require(sent.verificationID).value
            #expect(sent.phone.e164 == "+15305550123")
            #expect(f.sms.sent.count == 1)
            #expect(try await sessionCount(f) == 0)
            #expect(sent.codeExpiresAt.timeIntervalSince(f.clock.now) == 600)
            #expect(sent.resendAvailableAt.timeIntervalSince(f.clock.now) == 30)

            // Asked again at once: nothing new is sent, the code out is still the one.
            f.clock.advance(by: 10)
            let again = try await f.service.sendCode(phoneInput: "5305550123")
            #expect(!again.sent)
            #expect(again.verificationID == nil)
            #expect(again.resendAvailableAt.timeIntervalSince(f.clock.now) == 20)
            #expect(f.sms.sent.count == 1)

            let signedIn = try await f.service.verify(
                phoneInput: "+1 530 555 0123", verificationID: id, codeInput: f.sms.lastCode!)
            #expect(signedIn.user.phone == sent.phone)
            #expect(try await f.service.state(of: signedIn.session) == .signedIn(signedIn.user))
            #expect(try await sessionCount(f) == 1)
            // Single use.
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(phoneInput: phoneText, verificationID: id, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test("wrong codes count against the same limits as the pages", arguments: Backend.all)
    func limits(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let id = try #require(try await f.service.sendCode(phoneInput: phoneText).verificationID).value
            for _ in 1...4 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(phoneInput: phoneText, verificationID: id, codeInput: f.wrongCode())
                }
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(phoneInput: phoneText, verificationID: id, codeInput: f.wrongCode())
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(phoneInput: phoneText, verificationID: id, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test("invalid numbers are refused before anything is sent or checked", arguments: Backend.all)
    func invalid(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await #expect(throws: SignInError.phone(.wrongLength(digits: 3))) {
                _ = try await f.service.sendCode(phoneInput: "911")
            }
            await #expect(throws: SignInError.phone(.invalid)) {
                _ = try await f.service.sendCode(phoneInput: "(911) 555-0123")
            }
            let id = SessionToken.generate().value
            await #expect(throws: SignInError.phone(.empty)) {
                _ = try await f.service.verify(phoneInput: "", verificationID: id, codeInput: "123456")
            }
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(phoneInput: phoneText, verificationID: id, codeInput: "123456")
            }
            #expect(f.sms.sent.isEmpty)
        }
    }

    @Test(
        "someone who knows the number but not the verification id cannot try, or burn, the code",
        arguments: Backend.all)
    func boundToTheAsker(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let id = try #require(try await f.service.sendCode(phoneInput: phoneText).verificationID).value
            for stranger in [SessionToken.generate().value, "", "not-an-id", String(repeating: "A", count: 5000)] {
                for _ in 1...6 {
                    await #expect(throws: SignInError.codeRequestedElsewhere) {
                        _ = try await f.service.verify(
                            phoneInput: phoneText, verificationID: stranger, codeInput: f.wrongCode())
                    }
                }
            }
            // Nothing was counted: not on the code, not towards the number's lock.
            #expect(try await f.database.count("failed_checks") == 0)
            let signedIn = try await f.service.verify(
                phoneInput: phoneText, verificationID: id, codeInput: f.sms.lastCode!)
            #expect(signedIn.user.phone.e164 == "+15305550123")
        }
    }

    @Test(
        "a code asked for in a browser cannot be tried through the API, and the browser's attempt goes on",
        arguments: Backend.all)
    func browserCodeNotForTheAPI(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let browser = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            await #expect(throws: SignInError.codeRequestedElsewhere) {
                _ = try await f.service.verify(
                    phoneInput: phoneText, verificationID: SessionToken.generate().value, codeInput: f.sms.lastCode!)
            }
            let signedIn = try await f.service.verify(session: browser.session, codeInput: f.sms.lastCode!)
            #expect(signedIn.user.phone.e164 == "+15305550123")
        }
    }

    @Test(
        "a second browser that asks during the cooldown joins no code: its wrong codes do not reach the first's",
        arguments: Backend.all)
    func secondBrowser(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let first = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let second = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            #expect(!second.sent)
            for _ in 1...6 {
                await #expect(throws: SignInError.codeRequestedElsewhere) {
                    _ = try await f.service.verify(session: second.session, codeInput: f.wrongCode())
                }
            }
            #expect(try await f.database.count("failed_checks") == 0)
            _ = try await f.service.verify(session: first.session, codeInput: f.sms.lastCode!)
        }
    }
}
