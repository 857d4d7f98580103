import Encodings
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

    @Test("signed-in sessions end after 7 days idle or 30 days in all, and on sign-out", arguments: Backend.all)
    func sessionLifetimes(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            func signIn() async throws -> SessionToken {
                f.clock.advance(by: 31)
                let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
                return try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!).session
            }
            let idle = try await signIn()
            f.clock.advance(by: 7 * 86_400 - 10)
            #expect(try await f.service.state(of: idle) != nil)  // used: idle timer restarts
            f.clock.advance(by: 7 * 86_400 - 10)
            #expect(try await f.service.state(of: idle) != nil)
            f.clock.advance(by: 7 * 86_400 + 1)
            #expect(try await f.service.state(of: idle) == nil)

            let busy = try await signIn()
            for _ in 0..<4 {
                f.clock.advance(by: 6 * 86_400)
                #expect(try await f.service.state(of: busy) != nil)
            }
            f.clock.advance(by: 6 * 86_400 - 60)  // day 30 minus a minute: still in
            #expect(try await f.service.state(of: busy) != nil)
            f.clock.advance(by: 61)  // past the 30-day limit although used every few days
            #expect(try await f.service.state(of: busy) == nil)

            let out = try await signIn()
            try await f.service.signOut(session: out)
            #expect(try await f.service.state(of: out) == nil)
        }
    }

    @Test("purge deletes expired sessions at once and expired codes after a day", arguments: Backend.all)
    func purge(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            #expect(try await f.service.purgeExpired() == 0)
            func counts() async throws -> [Int] {
                [try await f.database.count("sessions"), try await f.database.count("verifications")]
            }
            f.clock.advance(by: 1201)
            #expect(try await f.service.purgeExpired() == 1)
            #expect(try await counts() == [0, 1])
            f.clock.advance(by: 86_400)
            // The expired code, and the send record once it left the limits' windows.
            #expect(try await f.service.purgeExpired() == 2)
            #expect(try await counts() == [0, 0])
        }
    }

    @Test("codes are stored only as digests", arguments: Backend.all)
    func storedHashed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let code = f.sms.lastCode!
            let stored = try #require(try await f.database.data("SELECT code_digest FROM verifications"))
            #expect(stored.count == 32)
            #expect(!stored.hexString.contains(code))
            #expect(String(decoding: stored, as: UTF8.self) != code)
        }
    }
}

/// What people reading English are told.
private func english(_ phrase: Phrase) -> String { Wording.forTests[.english](phrase) }
