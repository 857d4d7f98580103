import Foundation
import Testing
import TestSupport
import Wording

@testable import AuthCore

@Suite("Sign-in rules")
struct SignInServiceTests {
    let phoneText = "(530) 555-0123"

    @Test("a code is texted, the right code signs in with a fresh session", arguments: Backend.all)
    func happyPath(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            #expect(request.sent)
            #expect(f.sms.sent.count == 1)
            #expect(f.sms.sent[0].to.e164 == "+15305550123")
            let code = try #require(f.sms.lastCode)
            #expect(f.sms.sent[0].words == "\(code) is your verification code.\n\n@example.com #\(code)")
            #expect(try await f.service.state(of: request.session) == .pending(try PhoneNumber(parsing: phoneText)))

            let signedIn = try await f.service.verify(session: request.session, codeInput: code)
            #expect(signedIn.session != request.session)
            #expect(signedIn.user.phone.e164 == "+15305550123")
            #expect(try await f.service.state(of: signedIn.session) == .signedIn(signedIn.user))
            // The pending session is gone (no fixation), and the code cannot be used twice.
            #expect(try await f.service.state(of: request.session) == nil)
            let again = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.verify(session: again.session, codeInput: code)
            }
        }
    }

    @Test("the same user is found on the next sign-in", arguments: Backend.all)
    func sameUserTwice(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let first = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let user1 = try await f.service.verify(session: first.session, codeInput: f.sms.lastCode!).user
            f.clock.advance(by: 60)
            let second = try await f.service.requestCode(phoneInput: "530.555.0123", session: nil)
            let user2 = try await f.service.verify(session: second.session, codeInput: f.sms.lastCode!).user
            #expect(user1 == user2)
        }
    }

    @Test("invalid numbers send nothing", arguments: Backend.all)
    func invalidPhone(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await #expect(throws: SignInError.phone(.invalid)) {
                _ = try await f.service.requestCode(phoneInput: "(911) 555-0123", session: nil)
            }
            await #expect(throws: SignInError.phone(.empty)) {
                _ = try await f.service.requestCode(phoneInput: " ", session: nil)
            }
            #expect(f.sms.sent.isEmpty)
        }
    }

    @Test("a wrong code is refused, then the right one still works", arguments: Backend.all)
    func wrongThenRight(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
            }
            // Not six digits: refused as such, and no try counted (see malformedNotCounted).
            await #expect(throws: SignInError.malformedCode) {
                _ = try await f.service.verify(session: request.session, codeInput: "12ab56")
            }
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("a code expires after ten minutes; the pending sign-in then only allows a resend", arguments: Backend.all)
    func expiry(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            f.clock.advance(by: 599)
            #expect(try await f.service.state(of: request.session) != nil)
            f.clock.advance(by: 2)
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
            }
            // Within the grace the number is remembered, so a new code can be sent to it.
            _ = try await f.service.resendCode(session: request.session)
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("a pending sign-in ends with its grace period", arguments: Backend.all)
    func pendingEnds(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            f.clock.advance(by: 1201)
            #expect(try await f.service.state(of: request.session) == nil)
            await #expect(throws: SignInError.noPendingSignIn) {
                _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test(
        "the wrong code tried last, sent again (Safari's Reload of the page that said so), is not a new try",
        arguments: Backend.all)
    func sameWrongCodeAgain(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let wrong = f.wrongCode()
            for _ in 1...3 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(session: request.session, codeInput: wrong)
                }
            }
            #expect(try await f.database.integer("SELECT failed_attempts FROM verifications") == 1)
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
            }
            #expect(try await f.database.integer("SELECT failed_attempts FROM verifications") == 2)
            // A new code starts again: the old wrong digits are a new try at it.
            f.clock.advance(by: 30)
            _ = try await f.service.resendCode(session: request.session)
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.verify(session: request.session, codeInput: wrong)
            }
            #expect(try await f.database.integer("SELECT failed_attempts FROM verifications") == 1)
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("the fifth wrong code kills the code", arguments: Backend.all)
    func fiveWrong(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            for _ in 1...4 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
                }
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
            }
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
            }
            // A new code brings sign-in back.
            f.clock.advance(by: 30)
            _ = try await f.service.resendCode(session: request.session)
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test(
        "a code that is not six digits costs no try: after four wrong codes and ten malformed ones the right code works",
        arguments: Backend.all)
    func malformedNotCounted(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            for _ in 1...4 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
                }
            }
            for input in ["", "1", "12345", "12a456", "abcdef", "1234567", "١٢٣٤٥٦", "12 456", "000000000", "-12345"] {
                await #expect(throws: SignInError.malformedCode, "\(input)") {
                    _ = try await f.service.verify(session: request.session, codeInput: input)
                }
            }
            #expect(english(SignInError.malformedCode.saying) == "Enter the 6-digit code")
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("resend waits 30 seconds and replaces the old code", arguments: Backend.all)
    func resend(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let oldCode = f.sms.lastCode!
            f.clock.advance(by: 10)
            await #expect(throws: SignInError.resendTooSoon(seconds: 20)) {
                _ = try await f.service.resendCode(session: request.session)
            }
            #expect(
                english(SignInError.resendTooSoon(seconds: 20).saying)
                    == "Please wait 20 seconds before requesting a new code."
            )
            #expect(try await f.service.resendWait(for: try PhoneNumber(parsing: phoneText)) == 20)
            f.clock.advance(by: 20)
            _ = try await f.service.resendCode(session: request.session)
            #expect(f.sms.sent.count == 2)
            if oldCode != f.sms.lastCode! {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(session: request.session, codeInput: oldCode)
                }
            }
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("logging in again during the cooldown sends no second text", arguments: Backend.all)
    func loginTwice(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let first = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let second = try await f.service.requestCode(phoneInput: phoneText, session: first.session)
            #expect(!second.sent)
            #expect(second.session == first.session)
            #expect(f.sms.sent.count == 1)
            _ = try await f.service.verify(session: second.session, codeInput: f.sms.lastCode!)
        }
    }

    @Test("a failed text leaves no code behind", arguments: Backend.all)
    func deliveryFailure(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            f.sms.fail(true)
            await #expect(throws: SignInError.deliveryFailed) {
                _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            }
            f.sms.fail(false)
            // No cooldown was started by the failed attempt.
            let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            #expect(request.sent)
            _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
        }
    }
}

/// What people reading English are told.
private func english(_ phrase: Phrase) -> String { Wording.forTests[.english](phrase) }
