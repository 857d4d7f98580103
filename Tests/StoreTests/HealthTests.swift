import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// The operators' health check on every backend (issue 26, part 5).
@Suite("Sign-in health")
struct HealthTests {
    @Test(
        "the last hour's conversion and delivery rates, with a warning for each below its mark", arguments: Backend.all)
    func rates(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            // 24 codes to 24 exchanges a minute apart (no breaker), 8 of them used; 20 texts
            // reported, 12 delivered.
            for n in 0..<24 {
                let number = "(530) \(300 + n)-0100"
                let sent = try await f.service.sendCode(phoneInput: number, client: "198.51.100.\(n)")
                if n % 3 == 0 {
                    _ = try await f.service.verify(
                        phoneInput: number, verificationID: try #require(sent.verificationID).value,
                        codeInput: try #require(f.sms.lastCode))
                }
                if n < 20 {
                    _ = try await f.service.recordDelivery(
                        DeliveryReport(providerID: nil, status: n < 12 ? .delivered : .undelivered, errorCode: "30003"),
                        for: try #require(f.sms.sent.last).reference)
                }
                f.clock.advance(by: 60)
            }
            // 11 minutes on, all 24 codes have had their 10 minutes: a third used; of the 20 final
            // statuses, 60% delivered. Both under their marks (50%, 80%).
            f.clock.advance(by: 11 * 60)
            let health = try await f.service.checkHealth()
            #expect(health.conversion == 8.0 / 24)
            #expect(health.delivery == 0.6)
            #expect(health.warnings.count == 2)
            #expect(
                health.warnings.first?.hasPrefix("Only 8 of the last hour's 24 codes were used (under 50%)") == true)
            // An hour on, nothing is left to judge.
            f.clock.advance(by: 3600)
            #expect(try await f.service.checkHealth() == SignInHealth(conversion: nil, delivery: nil, warnings: []))
        }
    }

    @Test(
        "a provider that takes texts and never reports on them: a warning once a code's lifetime has passed",
        arguments: Backend.all)
    func unreported(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            for n in 0..<20 {
                _ = try await f.service.sendCode(phoneInput: "(530) \(300 + n)-0100", client: "198.51.100.\(n)")
                if n < 5 {
                    _ = try await f.service.recordDelivery(
                        DeliveryReport(providerID: nil, status: .delivered), for: try #require(f.sms.sent.last).reference)
                }
                f.clock.advance(by: 10)
            }
            // Too soon to tell: the texts may still be reported.
            #expect(try await f.service.checkHealth(reportsExpected: true).warnings.isEmpty)
            f.clock.advance(by: 11 * 60)
            let health = try await f.service.checkHealth(reportsExpected: true)
            #expect(health.reportsMissing)
            let warnings = health.warnings
            #expect(warnings.contains { $0.hasPrefix("15 of the last hour's 20 texts and calls have had no delivery report") })
            // Without reports asked for (the outbox), nothing is expected.
            #expect(try await f.service.checkHealth().warnings.allSatisfy { !$0.contains("no delivery report") })
        }
    }
}
