import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// Calls and delivery reports, decided on hand-made snapshots: no database.
@Suite("Delivery rules, without a database")
struct DeliveryRulesTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var seconds: Double { now.timeIntervalSince1970 }
    let phone = try! PhoneNumber(parsing: "(530) 555-0123")
    let reference = SendReference(Substring("00112233445566778899aabbccddeeff"))!

    func call() -> CodeIssue {
        CodeIssue(
            phone: phone, codeDigest: Data(repeating: 7, count: 32), existingSession: Data(repeating: 1, count: 32),
            newSession: nil, attachSessionDuringCooldown: false, client: "10.0.0.1", channel: .voice,
            reference: reference, now: now)
    }

    func send(_ status: DeliveryStatus, id: String? = "SM1", at: Double? = nil, error: String? = nil) -> SendRecord {
        SendRecord(
            reference: reference, phone: "+15305550123", channel: .sms, sentAt: seconds - 40, providerID: id,
            status: status, statusAt: at, errorCode: error)
    }

    /// The session asking, pending for the number.
    var pending: SessionRecord {
        SessionRecord(
            pendingPhone: "+15305550123", userID: nil, userPhone: nil, lastSeenAt: seconds - 10,
            expiresAt: seconds + 100, absoluteExpiresAt: seconds + 100)
    }

    func code(sentAgo: Double, status: DeliveryStatus) -> StoredCode {
        StoredCode(
            digest: Data(repeating: 7, count: 32), sentAt: seconds - sentAgo, expiresAt: seconds - sentAgo + 600,
            failedAttempts: 0, send: send(status))
    }

    @Test("a call costs callCost texts: the budget's reads leave room for it, and its use counts it")
    func callCost() {
        #expect(
            rules.issueReads(call()).list.budgets == [
                AllSends(since: seconds - 3600, reaching: 499, until: seconds + 60), AllSends(since: seconds - 86_400, reaching: 1999, until: seconds + 60),
            ])
        let decision = rules.issue(
            call(),
            given: Stored(
                session: pending, textsInHour: SendCount(count: 10, reachedAt: nil),
                textsInDay: SendCount(count: 20, reachedAt: nil)))
        #expect(decision.outcome.budget == BudgetUse(textsInHour: 12, textsInDay: 22, cost: 2))
        #expect(
            decision.changes.first
                == .recordSend(
                    phone: "+15305550123", client: "10.0.0.1", at: seconds, channel: .voice, cost: 2,
                    reference: reference))
    }

    @Test("a budget with room for a text but not a call refuses the call")
    func callOverBudget() {
        let decision = rules.issue(
            call(), given: Stored(session: pending, textsInHour: SendCount(count: 499, reachedAt: seconds - 600)))
        #expect(decision.outcome.limited == SendLimitReached(.budget, until: now.addingTimeInterval(3000)))
        #expect(decision.changes.isEmpty)
    }

    @Test("the 80% and 100% warnings are given when a call jumps over the mark")
    func warningCrossed() {
        #expect(rules.budgetWarning(BudgetUse(textsInHour: 401, textsInDay: 1, cost: 2))?.hasPrefix("80%") == true)
        #expect(rules.budgetWarning(BudgetUse(textsInHour: 402, textsInDay: 1, cost: 2)) == nil)
        #expect(rules.budgetWarning(BudgetUse(textsInHour: 501, textsInDay: 1, cost: 2))?.hasPrefix("100%") == true)
    }

    @Test(
        "a text and a call share one cooldown, lifted at once when the last send did not arrive",
        arguments: DeliveryStatus.allCases)
    func cooldown(_ status: DeliveryStatus) {
        let decision = rules.issue(
            call(), given: Stored(session: pending, code: code(sentAgo: 10, status: status)))
        if status.didNotArrive {
            #expect(decision.outcome.cooldownUntil == nil)
            #expect(decision.outcome.budget != nil)
            #expect(rules.resendWait(code(sentAgo: 10, status: status), now: now) == 0)
        } else {
            #expect(decision.outcome.cooldownUntil == now.addingTimeInterval(20))
            #expect(decision.changes.isEmpty)
            #expect(rules.resendWait(code(sentAgo: 10, status: status), now: now) == 20)
        }
    }

    @Test("a call not answered keeps the cooldown; a call's reads name the number's calls")
    func unansweredCall() {
        var unanswered = code(sentAgo: 10, status: .undelivered)
        unanswered.send?.channel = .voice
        let decision = rules.issue(call(), given: Stored(session: pending, code: unanswered))
        #expect(decision.outcome.cooldownUntil == now.addingTimeInterval(20))
        #expect(
            rules.issueReads(call()).list.window(.phoneCalls)
                == RecentEvents(kind: .phoneCalls, subject: "+15305550123", since: seconds - 3600, position: 2, until: seconds + 60))
        var text = call()
        text.channel = .sms
        #expect(rules.issueReads(text).list.window(.phoneCalls) == nil)
    }

    @Test("the fourth call in an hour is refused until the first leaves it; a text is not")
    func callLimit() {
        let found = Stored(session: pending, events: [.phoneCalls: seconds - 600])
        #expect(
            rules.issue(call(), given: found).outcome.limited
                == SendLimitReached(.phoneCalls, until: now.addingTimeInterval(3000)))
        var text = call()
        text.channel = .sms
        #expect(rules.issue(text, given: found).outcome.limited == nil)
    }

    @Test("a report moves the status forward and keeps the provider's id and error code")
    func forward() {
        let decision = rules.recordDelivery(
            DeliveryReport(providerID: "SM1", status: .undelivered, errorCode: "30003"), for: reference, at: now,
            given: Stored(send: send(.queued)))
        #expect(
            decision.outcome == .recorded(send(.undelivered, at: seconds, error: "30003"), changed: true))
        #expect(
            decision.changes == [
                .recordDelivery(
                    reference: reference,
                    report: DeliveryReport(providerID: nil, status: .undelivered, errorCode: "30003"), at: seconds)
            ])
    }

    @Test("a replay, or a report older than the one on record, writes nothing", arguments: DeliveryStatus.allCases)
    func neverBackwards(_ reported: DeliveryStatus) {
        let onRecord = send(.delivered, at: seconds - 5)
        let decision = rules.recordDelivery(
            DeliveryReport(providerID: "SM1", status: reported), for: reference, at: now,
            given: Stored(send: onRecord))
        #expect(decision.outcome == .recorded(onRecord, changed: false))
        #expect(decision.changes.isEmpty)
    }

    @Test("an unknown send is 404; a report naming another message is refused and writes nothing")
    func unknownAndOther() {
        let report = DeliveryReport(providerID: "SM2", status: .delivered)
        #expect(rules.recordDelivery(report, for: reference, at: now, given: Stored()).outcome == .unknownSend)
        let other = rules.recordDelivery(report, for: reference, at: now, given: Stored(send: send(.queued)))
        #expect(other.outcome == .otherMessage)
        #expect(other.changes.isEmpty)
    }

    @Test("a callback before the send's answer names the provider's id; the answer after it moves nothing back")
    func callbackFirst() {
        let first = rules.recordDelivery(
            DeliveryReport(providerID: "SM9", status: .delivered), for: reference, at: now,
            given: Stored(send: send(.sending, id: nil)))
        #expect(first.outcome == .recorded(send(.delivered, id: "SM9", at: seconds), changed: true))
        let answer = rules.recordDelivery(
            DeliveryReport(providerID: "SM9", status: .queued), for: reference, at: now.addingTimeInterval(1),
            given: Stored(send: send(.delivered, id: "SM9", at: seconds)))
        #expect(answer.changes.isEmpty)
        let idLate = rules.recordDelivery(
            DeliveryReport(providerID: "SM9", status: .queued), for: reference, at: now,
            given: Stored(send: send(.failed, id: nil, at: seconds - 3, error: "30008")))
        #expect(
            idLate.changes == [
                .recordDelivery(
                    reference: reference,
                    report: DeliveryReport(providerID: "SM9", status: .failed, errorCode: "30008"),
                    at: seconds - 3)
            ])
    }

    @Test("the reads name the send and lock it")
    func reads() {
        let reads = rules.deliveryReads(reference).list
        #expect(reads.reads == [.send(reference)])
        #expect(reads.locks == [.send(reference)])
    }
}

/// The pumping breaker (issue 26, part 6), on hand-made snapshots.
@Suite("Pumping breaker, without a database")
struct BreakerRulesTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var seconds: Double { now.timeIntervalSince1970 }

    func text(to number: String) -> CodeIssue {
        CodeIssue(
            phone: try! PhoneNumber(parsing: number), codeDigest: Data(repeating: 7, count: 32), existingSession: nil,
            newSession: nil, attachSessionDuringCooldown: true, client: "10.0.0.1", now: now)
    }

    @Test("the reads name the exchange's settled codes: sent between an hour and a code's lifetime ago")
    func reads() {
        #expect(
            rules.issueReads(text(to: "(530) 555-0123")).list.settled == [
                SettledCodes(prefix: "+1530555", since: seconds - 3600, settledBy: seconds - 600, position: 9)
            ])
    }

    @Test(
        "10 settled codes with fewer than 20% used pause the exchange until the window holds fewer than 10",
        arguments: [
            // sent, used, the 10th newest settled sent this long ago, paused for
            (10, 1, 3000.0, 600.0 as Double?), (20, 3, 1200.0, 2400.0), (10, 2, 3000.0, nil), (9, 0, nil, nil),
            (40, 8, 700.0, nil),
        ] as [(Int, Int, Double?, Double?)])
    func breaker(_ sent: Int, _ used: Int, _ tenthAgo: Double?, _ pausedFor: Double?) {
        let found = Stored(
            conversion: Conversion(sent: sent, verified: used, atPosition: tenthAgo.map { seconds - $0 }))
        let decision = rules.issue(text(to: "(530) 555-0123"), given: found)
        if let pausedFor {
            #expect(
                decision.outcome.limited == SendLimitReached(.exchangePaused, until: now.addingTimeInterval(pausedFor)))
            #expect(decision.changes.isEmpty)
        } else {
            #expect(decision.outcome.limited == nil)
        }
    }

    @Test("a right code marks its send used; one stored before sends had references marks nothing")
    func markVerified() {
        let reference = SendReference.generate()
        let phone = try! PhoneNumber(parsing: "(530) 555-0123")
        let hasher = CodeHasher(secret: .random())
        let code = OneTimeCode("123456")!
        func stored(_ send: SendRecord?) -> StoredCode {
            StoredCode(
                digest: hasher.digest(of: code, for: phone), sentAt: seconds - 60, expiresAt: seconds + 540,
                failedAttempts: 0, send: send)
        }
        let request = CodeCheck(
            session: nil, phone: phone, candidateDigest: hasher.digest(of: code, for: phone),
            signedInSession: Data(repeating: 3, count: 32), now: now)
        let send = SendRecord(reference: reference, phone: "+15305550123", channel: .sms, sentAt: seconds - 60)
        let marked = rules.check(request, given: Stored(code: stored(send)))
        #expect(marked.changes.contains(.markVerified(reference: reference, at: seconds)))
        let old = rules.check(request, given: Stored(code: stored(nil)))
        #expect(!old.changes.contains { if case .markVerified = $0 { true } else { false } })
    }
}

/// The operators' health check (issue 26, part 5), on hand-made snapshots.
@Suite("Sign-in health, without a database")
struct HealthRulesTests {
    let rules = SignInRules(policy: SignInPolicy())

    @Test("the reads: every number's settled codes in the hour, and the hour's final statuses")
    func reads() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(
            rules.healthReads(now: now).list.reads == [
                .settledCodes(
                    SettledCodes(prefix: "+1", since: 1_799_996_400, settledBy: 1_799_999_400, position: 9)),
                .deliveries(since: 1_799_996_400, settledBy: 1_799_999_400),
            ])
    }

    @Test(
        "rates below their marks warn once the hour holds 20 of what they count",
        arguments: [
            // sent, used, delivered, not delivered → conversion, delivery, warnings
            (40, 30, 40, 2, 0.75 as Double?, 40.0 / 42 as Double?, 0), (40, 10, 10, 10, 0.25, 0.5, 2),
            (19, 0, 10, 9, nil, nil, 0), (20, 9, 16, 4, 0.45, 0.8, 1),
        ] as [(Int, Int, Int, Int, Double?, Double?, Int)])
    func rates(
        _ sent: Int, _ used: Int, _ delivered: Int, _ lost: Int, _ conversion: Double?, _ delivery: Double?,
        _ warnings: Int
    ) {
        var found = Stored()
        found.conversion = Conversion(sent: sent, verified: used)
        found.deliveries = Deliveries(delivered: delivered, notDelivered: lost)
        let health = rules.health(at: Date(timeIntervalSince1970: 1_800_000_000), given: found)
        #expect(health.conversion == conversion)
        #expect(health.delivery == delivery)
        #expect(health.warnings.count == warnings)
    }

    @Test(
        "sends left with no delivery report after a code's lifetime warn, when reports are expected and over half have none",
        arguments: [
            // settled, unreported, reports expected → warns
            (20, 11, true, true), (20, 10, true, false), (19, 19, true, false), (40, 40, false, false),
        ] as [(Int, Int, Bool, Bool)])
    func unreported(_ settled: Int, _ unreported: Int, _ expected: Bool, _ warns: Bool) {
        var found = Stored()
        found.deliveries = Deliveries(delivered: 0, notDelivered: 0, settled: settled, unreported: unreported)
        let health = rules.health(given: found.found(rules.healthReads(now: Date(timeIntervalSince1970: 1_800_000_000))), reportsExpected: expected)
        #expect(health.warnings.contains { $0.contains("no delivery report") } == warns)
    }
}
