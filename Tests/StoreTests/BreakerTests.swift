import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// The pumping breaker on every backend (issue 26, part 6): a simulated pumping run mixed with
/// real sign-ins.
@Suite("Pumping breaker")
struct BreakerTests {
    @Test(
        "a pumping run pauses its exchange once its codes have had their 10 minutes; real sign-ins elsewhere and before go on",
        arguments: Backend.all)
    func pumpingRun(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            func signIn(_ number: String) async throws {
                let sent = try await f.service.sendCode(phoneInput: number)
                _ = try await f.service.verify(
                    phoneInput: number, verificationID: try #require(sent.verificationID).value,
                    codeInput: try #require(f.sms.lastCode))
            }
            // A real person in the exchange signs in; then the pumper asks for codes to 12 of its
            // numbers from as many addresses, a minute apart, and never types one. Real people in
            // another exchange sign in all along.
            try await signIn("(530) 555-0199")
            for n in 0..<12 {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-01\(10 + n)", client: "203.0.113.\(n)")
                try await signIn("(415) 555-01\(10 + n)")
                f.clock.advance(by: 60)
            }
            // 12 minutes on: the first three pumped codes (and the real one) have had their 10
            // minutes; too few settled codes yet, so a real person in the exchange still signs in.
            try await signIn("(530) 555-0150")
            f.clock.advance(by: 9 * 60)
            // 21 minutes on: 11 settled codes, 1 used: the exchange pauses, for everyone in it.
            await #expect(throws: SignInError.self) {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-0151")
            }
            do {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-0152")
                Issue.record("the breaker let a text through")
            } catch SignInError.tooManyCodesForExchange(let seconds) {
                // Until the hour no longer holds ten settled codes: the 10th newest (sent at minute
                // 2) leaves it at minute 62, 41 minutes from now.
                #expect(seconds == 41 * 60)
            }
            // Numbers elsewhere are not touched.
            try await signIn("(415) 555-0199")
            try await signIn("(530) 556-0100")
            // Once the window has moved on (the pumped code of minute 3 leaves it at minute 63),
            // the exchange gets codes again.
            f.clock.advance(by: 41 * 60)
            await #expect(throws: SignInError.tooManyCodesForExchange(seconds: 60)) {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-0153")
            }
            f.clock.advance(by: 60)
            let again = try await f.service.sendCode(phoneInput: "(530) 555-0153")
            #expect(again.sent)
        }
    }

    @Test("an exchange whose codes are used is never paused, however busy", arguments: Backend.all)
    func busyButReal(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxTextsPerExchange = 1000
            let f = ServiceFixture(database, policy: policy)
            // 25 sign-ins in 25 minutes, one in four never finished (a person who gave up).
            for n in 0..<25 {
                let number = "(530) 555-01\(10 + n)"
                let sent = try await f.service.sendCode(phoneInput: number, client: "198.51.100.\(n)")
                if n % 4 != 0 {
                    _ = try await f.service.verify(
                        phoneInput: number, verificationID: try #require(sent.verificationID).value,
                        codeInput: try #require(f.sms.lastCode))
                }
                f.clock.advance(by: 60)
            }
            #expect(try await f.service.sendCode(phoneInput: "(530) 555-0199").sent)
        }
    }
}
