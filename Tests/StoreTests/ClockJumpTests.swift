import Foundation
import Testing

@testable import AuthCore

/// The wall clock set back or forward an hour (issue 41, part 6), on every backend: a code
/// lasts at most its ten minutes and its resend wait at most its 30 seconds, whichever way the
/// clock moves; a signed-in person stays signed in.
@Suite("The wall clock moved an hour")
struct ClockJumpTests {
    let phoneText = "(530) 555-0123"

    @Test(
        "set back an hour: the code out counts as expired (not an hour longer), a new one goes at once and signs in",
        arguments: Backend.all)
    func setBack(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let first = try #require(f.sms.lastCode)
            f.clock.advance(by: -3600)
            await #expect(throws: SignInError.codeExpired) {
                _ = try await f.service.verify(session: pending.session, codeInput: first)
            }
            let status = try await f.service.codeStatus(for: try PhoneNumber(parsing: phoneText))
            #expect(status.resendWait == 0 && status.triesLeft == nil)
            // No hour-long resend wait: the new code goes now, and works.
            let again = try await f.service.resendCode(session: pending.session)
            #expect(again.sent)
            let signedIn = try await f.service.verify(session: pending.session, codeInput: try #require(f.sms.lastCode))
            // Signed in, whichever way the clock goes next.
            f.clock.advance(by: 7200)
            #expect(try await f.service.state(of: signedIn.session) == .signedIn(signedIn.user))
            f.clock.advance(by: -7200)
            #expect(try await f.service.state(of: signedIn.session) == .signedIn(signedIn.user))
        }
    }

    @Test(
        "set back an hour: the sends before it no longer fill the number's limit or the budget (no hour-long lockout)",
        arguments: Backend.all)
    func windowsSetBack(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxTextsPerHour = 6
            let f = ServiceFixture(database, policy: policy)
            for _ in 0..<5 {
                _ = try await f.service.sendCode(phoneInput: phoneText)
                f.clock.advance(by: 31)
            }
            await #expect(throws: SignInError.tooManyCodesForPhone(seconds: 445)) {
                _ = try await f.service.sendCode(phoneInput: phoneText)
            }
            _ = try await f.service.sendCode(phoneInput: "(415) 555-0100")
            await #expect(throws: SignInError.textsUnavailable(seconds: 3445)) {
                _ = try await f.service.sendCode(phoneInput: "(415) 555-0101")
            }
            f.clock.advance(by: -3600)
            #expect(try await f.service.sendCode(phoneInput: phoneText).sent)
            #expect(try await f.service.sendCode(phoneInput: "(415) 555-0101").sent)
        }
    }

    @Test("set back less than a minute (another instance's clock a little ahead): nothing changes", arguments: Backend.all)
    func skew(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            f.clock.advance(by: -50)
            await #expect(throws: SignInError.resendTooSoon(seconds: 80)) {
                _ = try await f.service.resendCode(session: pending.session)
            }
            _ = try await f.service.verify(session: pending.session, codeInput: try #require(f.sms.lastCode))
        }
    }

    @Test("moved forward an hour: the code out expires, a new one goes at once and signs in", arguments: Backend.all)
    func forward(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let first = try #require(f.sms.lastCode)
            f.clock.advance(by: 3600)
            // The pending sign-in has ended with its code (their life and a grace): Login again.
            await #expect(throws: SignInError.noPendingSignIn) {
                _ = try await f.service.verify(session: pending.session, codeInput: first)
            }
            let again = try await f.service.requestCode(phoneInput: phoneText, session: pending.session)
            #expect(again.sent)
            _ = try await f.service.verify(session: again.session, codeInput: try #require(f.sms.lastCode))
        }
    }
}
