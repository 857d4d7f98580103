import Foundation
import TestSupport
import Testing
import Wording

@testable import AuthCore

@Suite("Sending and guessing limits")
struct LimitTests {
    @Test("at most 5 codes per number per 10 minutes", arguments: Backend.all)
    func perPhone(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let first = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "10.0.0.1")
            for _ in 2...5 {
                f.clock.advance(by: 30)
                _ = try await f.service.resendCode(session: first.session, client: "10.0.0.1")
            }
            #expect(f.sms.sent.count == 5)
            f.clock.advance(by: 30)
            // 150 s after the first text: it leaves the window in 450 s.
            await #expect(throws: SignInError.tooManyCodesForPhone(seconds: 450)) {
                _ = try await f.service.resendCode(session: first.session, client: "10.0.0.2")
            }
            await #expect(throws: SignInError.tooManyCodesForPhone(seconds: 450)) {
                _ = try await f.service.requestCode(phoneInput: "(530) 555-0123", session: nil, client: "10.0.0.3")
            }
            #expect(
                english(SignInError.tooManyCodesForPhone(seconds: 450).saying)
                    == "Too many codes were sent to this number. Please try again in 8 minutes.")
            #expect(f.sms.sent.count == 5)
            f.clock.advance(by: 450)
            _ = try await f.service.resendCode(session: first.session, client: "10.0.0.1")
            #expect(f.sms.sent.count == 6)
        }
    }

    @Test("at most 20 codes per client address per hour, across numbers", arguments: Backend.all)
    func perClient(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            for line in 0..<20 {
                _ = try await f.service.requestCode(
                    phoneInput: "530555\(String(format: "%04d", line))", session: nil, client: "203.0.113.9")
            }
            await #expect(throws: SignInError.tooManyCodesFromClient(seconds: 3600)) {
                _ = try await f.service.requestCode(phoneInput: "4155550100", session: nil, client: "203.0.113.9")
            }
            // Another address is not affected.
            _ = try await f.service.requestCode(phoneInput: "4155550100", session: nil, client: "203.0.113.10")
            #expect(f.sms.sent.count == 21)
        }
    }

    @Test(
        "at most 30 sign-ins (pending sessions) per client address per hour, also during the cooldown, when no text goes out",
        arguments: Backend.all)
    func signInsPerClient(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            // One text, then 29 more sign-ins joining it during the cooldown: 30 pending sessions.
            for _ in 0..<30 {
                _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.9")
            }
            #expect(f.sms.sent.count == 1)
            await #expect(throws: SignInError.tooManySignInsFromClient(seconds: 3600)) {
                _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.9")
            }
            #expect(try await database.count("sessions") == 30)
            #expect(
                english(SignInError.tooManySignInsFromClient(seconds: 3600).saying)
                    == "Too many sign-ins were started from your network. Please try again in 1 hour.")
            // Another address is not affected; a session already pending is kept, not counted.
            let other = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.10")
            _ = try await f.service.requestCode(phoneInput: "5305550123", session: other.session, client: "203.0.113.9")
            // An hour later the window has room again, and the purge forgets what it no longer counts.
            f.clock.advance(by: 3600)
            #expect(try await f.service.purgeExpired() > 0)
            #expect(try await database.count("sign_in_starts") == 0)
            _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.9")
        }
    }

    @Test("a text that failed to send does not count against the limits", arguments: Backend.all)
    func failedSendNotCounted(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            // One message refused after another (the provider's 4xx): its breaker does not pause.
            let f = ServiceFixture(database)
            f.sms.fail(true, kind: .refused)
            for _ in 0..<6 {
                await #expect(throws: SignInError.deliveryFailed) {
                    _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "10.0.0.1")
                }
            }
            // Nothing is left behind: no code, no count, no pending session.
            let rows = [
                try await f.database.count("verifications"), try await f.database.count("code_sends"),
                try await f.database.count("sessions"),
            ]
            #expect(rows == [0, 0, 0])
            f.sms.fail(false)
            let request = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "10.0.0.1")
            #expect(f.sms.sent.count == 1)

            // A failed resend keeps the sign-in pending (the person stays on Verify).
            f.clock.advance(by: 31)
            f.sms.fail(true)
            await #expect(throws: SignInError.deliveryFailed) {
                _ = try await f.service.resendCode(session: request.session)
            }
            #expect(try await f.service.state(of: request.session) == .pending(try PhoneNumber(parsing: "5305550123")))
        }
    }

    @Test(
        "20 failed codes per number in 24 hours lock sign-in until the window passes; no text goes to it meanwhile",
        arguments: Backend.all)
    func lockout(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxCodesPerPhone = 100
            policy.maxFailuresPerPhone = 20  // 100 by default; fewer keeps the test short
            let f = ServiceFixture(database, policy: policy)
            let request = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            var failures = 0
            while failures < 20 {
                if failures > 0 && failures % 5 == 0 {
                    f.clock.advance(by: 30)
                    _ = try await f.service.resendCode(session: request.session)
                }
                do {
                    _ = try await f.service.verify(session: request.session, codeInput: f.wrongCode())
                } catch SignInError.incorrectCode, SignInError.tooManyAttempts {
                    failures += 1
                }
            }
            f.clock.advance(by: 30)
            let isLock: @Sendable (any Error) -> Bool = { error in
                guard case .phoneLocked(let seconds) = error as? SignInError else { return false }
                return seconds > 86_000 && seconds <= 86_400
            }
            // Locked: no text at all, from Resend or from Login; the last code is refused too.
            let texts = f.sms.sent.count
            await #expect(performing: { _ = try await f.service.resendCode(session: request.session) }, throws: isLock)
            await #expect(
                performing: { _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil) },
                throws: isLock)
            await #expect(performing: { _ = try await f.service.sendCode(phoneInput: "5305550123") }, throws: isLock)
            #expect(f.sms.sent.count == texts)
            await #expect(
                performing: { _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!) },
                throws: isLock)
            #expect(
                english(SignInError.phoneLocked(seconds: 86_000).saying)
                    == "Too many incorrect codes for this number. Sign-in is locked for 24 hours.")
            f.clock.advance(by: 86_400)
            let later = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            _ = try await f.service.verify(session: later.session, codeInput: f.sms.lastCode!)
        }
    }
}

/// What people reading English are told.
private func english(_ phrase: Phrase) -> String { Wording.forTests[.english](phrase) }
