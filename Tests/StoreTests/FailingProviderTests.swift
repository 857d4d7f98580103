import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// The provider's breaker on every backend (issue 41, part 5): a provider that fails pauses
/// sending for everyone, on every instance, and one send tries it again after the pause.
@Suite("A failing provider")
struct FailingProviderTests {
    let number = "(530) 555-0123"

    /// `count` numbers in a row whose texts the provider fails (`.unavailable`: as one that is
    /// down; three pause texts).
    func failInARow(_ f: ServiceFixture, count: Int = 3, kind: DeliveryError.Kind = .unavailable) async {
        f.sms.fail(true, kind: kind)
        for index in 0..<count {
            await #expect(throws: SignInError.deliveryFailed) {
                _ = try await f.service.requestCode(phoneInput: "53055501\(10 + index)", session: nil)
            }
        }
    }

    @Test(
        "three failures in a row pause sending: the fourth person is told at once, and the provider is not asked",
        arguments: Backend.all)
    func pauses(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await failInARow(f)
            #expect(f.sms.attempts == 3)
            await #expect(throws: SignInError.deliveryPaused(.sms, seconds: 30)) {
                _ = try await f.service.requestCode(phoneInput: number, session: nil)
            }
            #expect(f.sms.attempts == 3)
            // Nothing counted against the person: no code, no send, no pending session.
            #expect(try await f.database.count("verifications") == 0)
            #expect(try await f.database.count("code_sends") == 0)
            #expect(try await f.database.count("sessions") == 0)
            // Calls are another channel, tried on their own.
            f.sms.fail(false)
            let call = try await f.service.sendCode(phoneInput: number, channel: .voice)
            #expect(call.sent)
        }
    }

    @Test(
        "after the pause one send tries the provider: if it fails the pause doubles, once it succeeds sending resumes",
        arguments: Backend.all)
    func trialAndRecovery(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await failInARow(f)
            f.clock.advance(by: 31)
            await #expect(throws: SignInError.deliveryFailed) {
                _ = try await f.service.requestCode(phoneInput: number, session: nil)
            }
            #expect(f.sms.attempts == 4)
            await #expect(throws: SignInError.deliveryPaused(.sms, seconds: 60)) {
                _ = try await f.service.requestCode(phoneInput: number, session: nil)
            }
            f.clock.advance(by: 61)
            f.sms.fail(false)
            let first = try await f.service.requestCode(phoneInput: number, session: nil)
            #expect(first.sent)
            #expect(try await f.database.count("provider_health") == 0)
            // Resumed for everyone, with no further trial hold.
            let second = try await f.service.requestCode(phoneInput: "(530) 555-0199", session: nil)
            #expect(second.sent)
        }
    }

    @Test("while one send tries the provider after a pause, the others wait for it", arguments: Backend.all)
    func trialHolds(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            try await database.auth.apply([.providerFailed(channel: .sms, failures: 3, pausedUntil: 0)])
            // The trial's transaction is written before its text goes out: a second send
            // meanwhile (this one, as the row stands) is held for up to 15 s.
            try await database.auth.apply([.holdProvider(channel: .sms, until: f.clock.now.timeIntervalSince1970 + 15)])
            await #expect(throws: SignInError.deliveryPaused(.sms, seconds: 15)) {
                _ = try await f.service.requestCode(phoneInput: number, session: nil)
            }
            #expect(f.sms.attempts == 0)
        }
    }

    @Test(
        "the trial after a pause refused (a number the provider will not text): it answered, so sending resumes",
        arguments: Backend.all)
    func refusedTrialResumes(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await failInARow(f)
            f.clock.advance(by: 31)
            f.sms.fail(true, kind: .refused)
            await #expect(throws: SignInError.deliveryFailed) {
                _ = try await f.service.requestCode(phoneInput: number, session: nil)
            }
            let rows = try await f.database.count("provider_health")
            #expect(rows == 0)
            f.sms.fail(false)
            #expect(try await f.service.requestCode(phoneInput: "(530) 555-0199", session: nil).sent)
        }
    }

    @Test("a message the provider refused (a 4xx) says nothing of its health: no pause", arguments: Backend.all)
    func refusalsDoNotPause(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            await failInARow(f, count: 5, kind: .refused)
            let rows = try await f.database.count("provider_health")
            #expect(rows == 0)
        }
    }

    @Test("the pause is one for every instance on the database", arguments: Backend.all)
    func sharedPause(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let one = ServiceFixture(database)
            let two = ServiceFixture(database)
            await failInARow(one)
            await #expect(throws: SignInError.deliveryPaused(.sms, seconds: 30)) {
                _ = try await two.service.requestCode(phoneInput: number, session: nil)
            }
            #expect(two.sms.attempts == 0)
            // Calls are not paused: Login may offer one.
            let phone = try PhoneNumber(parsing: number)
            #expect(await two.service.callPossible(to: phone))
        }
    }
}
