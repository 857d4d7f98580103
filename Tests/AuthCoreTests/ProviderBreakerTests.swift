import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// The provider's breaker (``SignInPolicy/providerFailuresToPause``) on hand-made snapshots.
@Suite("The provider's breaker, without a database")
struct ProviderBreakerTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = 1_800_000_000.0
    let phone = try! PhoneNumber(parsing: "(530) 555-0123")

    func issue(_ channel: DeliveryChannel = .sms) -> CodeIssue {
        CodeIssue(
            phone: phone, codeDigest: Data(repeating: 7, count: 32), existingSession: nil,
            newSession: Data(repeating: 2, count: 32), attachSessionDuringCooldown: true, channel: channel,
            now: Date(timeIntervalSince1970: now))
    }

    @Test("sending reads the provider's health on the channel it sends on")
    func reads() {
        #expect(rules.issueReads(issue()).list.reads.contains(.providerHealth(.sms)))
        #expect(rules.issueReads(issue(.voice)).list.reads.contains(.providerHealth(.voice)))
        #expect(rules.providerHealthReads(.voice).list.locks == [.allSends])
    }

    @Test(
        "failures in a row pause sending from the third, 30 s doubled for each one after, at most 5 minutes",
        arguments: [(0, nil), (1, nil), (2, 30.0), (3, 60.0), (4, 120.0), (5, 240.0), (6, 300.0), (40, 300.0)])
    func pauses(_ before: Int, _ pause: Double?) {
        let decision = rules.providerFailed(.sms, given: ProviderHealth(failures: before), now: now)
        #expect(decision.outcome == pause.map { Date(timeIntervalSince1970: now + $0) })
        #expect(
            decision.changes == [
                .providerFailed(channel: .sms, failures: before + 1, pausedUntil: pause.map { now + $0 })
            ])
    }

    @Test("while paused, no code is stored or counted: the person is told at once, with the pause's end")
    func paused() {
        let found = Stored(provider: ProviderHealth(failures: 3, pausedUntil: now + 20))
        let decision = rules.issue(issue(), given: found)
        #expect(decision.outcome.limited == SendLimitReached(.providerPaused, until: Date(timeIntervalSince1970: now + 20)))
        #expect(!decision.changes.contains { if case .storeCode = $0 { true } else { false } })
        #expect(!decision.changes.contains { if case .recordSend = $0 { true } else { false } })
    }

    @Test("a pause ending further off than any pause can (set before the clock was set back) holds no one")
    func pauseFromBeforeTheClockWentBack() {
        let found = Stored(provider: ProviderHealth(failures: 3, pausedUntil: now + 3600))
        #expect(rules.issue(issue(), given: found).outcome.limited == nil)
        let longest = Stored(provider: ProviderHealth(failures: 9, pausedUntil: now + 300))
        #expect(rules.issue(issue(), given: longest).outcome.limited?.limit == .providerPaused)
    }

    @Test("the spend budget is said before the pause: it is the longer wait and the operator's choice")
    func budgetFirst() {
        var found = Stored(provider: ProviderHealth(failures: 3, pausedUntil: now + 20))
        found.textsInHour = SendCount(count: 500, reachedAt: now - 60)
        #expect(rules.issue(issue(), given: found).outcome.limited?.limit == .budget)
    }

    @Test("a pause on texts does not stop calls, and the other way round")
    func perChannel() {
        // The store answers per channel; a call reads the voice row, which here is healthy.
        let found = Stored(provider: ProviderHealth())
        #expect(rules.issue(issue(.voice), given: found).outcome.limited == nil)
    }

    @Test("after the pause, one send tries the provider and holds the others for 15 s; its success is noted")
    func trial() {
        let found = Stored(provider: ProviderHealth(failures: 3, pausedUntil: now - 1))
        let decision = rules.issue(issue(), given: found)
        #expect(decision.outcome.limited == nil)
        #expect(decision.outcome.providerFailing)
        #expect(decision.changes.contains(.holdProvider(channel: .sms, until: now + 15)))
    }

    @Test("a provider that failed once or twice is not held, but its next success is noted; a healthy one is left alone")
    func fewFailures() {
        let failing = rules.issue(issue(), given: Stored(provider: ProviderHealth(failures: 2)))
        #expect(failing.outcome.providerFailing)
        #expect(!failing.changes.contains { if case .holdProvider = $0 { true } else { false } })
        let healthy = rules.issue(issue(), given: Stored())
        #expect(!healthy.outcome.providerFailing)
    }
}
