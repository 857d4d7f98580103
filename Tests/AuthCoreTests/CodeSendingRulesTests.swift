import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// The sign-in decisions on hand-made snapshots: no database. Each row says what a transaction
/// found and what the rules must answer and write. Sending a code: the reads, the limits, the
/// budget, the cooldown, and a failed text taken back.
@Suite("Sign-in rules, without a database: sending a code")
struct CodeSendingRulesTests: SignInRulesFixture {
    @Test("the reads name every sending window (number, client, exchange, hour and day budget) and lock every send")
    func issueReads() {
        let reads = rules.issueReads(issue()).list
        #expect(reads.reads.contains(.session(key: existing)))
        #expect(reads.reads.contains(.code(phone: "+15305550123")))
        #expect(
            reads.window(.phoneSends)
                == RecentEvents(kind: .phoneSends, subject: "+15305550123", since: seconds - 600, position: 4, until: seconds + 60))
        #expect(
            reads.window(.clientSends)
                == RecentEvents(kind: .clientSends, subject: "10.0.0.1", since: seconds - 3600, position: 19, until: seconds + 60))
        #expect(
            reads.window(.exchangeSends)
                == RecentEvents(kind: .exchangeSends, subject: "+1530555", since: seconds - 3600, position: 29, until: seconds + 60))
        #expect(
            reads.budgets == [
                AllSends(since: seconds - 3600, reaching: 500, until: seconds + 60), AllSends(since: seconds - 86_400, reaching: 2000, until: seconds + 60),
            ])
        #expect(reads.locks == [.allSends, .phone("+15305550123")])
        #expect(rules.issueReads(issue(client: nil)).list.window(.clientSends) == nil)
        // A text reads no call window; a browser with no session cookie reads no session.
        #expect(reads.window(.phoneCalls) == nil)
        var noCookie = issue()
        noCookie.existingSession = nil
        #expect(!rules.issueReads(noCookie).list.reads.contains { if case .session = $0 { true } else { false } })
    }

    @Test(
        "the spend budget refuses every text once the hour's or the day's is used up, before any other limit",
        arguments: [
            // (newest-but-499 in the hour, newest-but-1999 in the day, a full number window) ago, wait
            (1800.0, nil, false, 1800.0), (nil, 80_000.0, false, 6400.0), (3000.0, nil, true, 600.0),
        ] as [(Double?, Double?, Bool, Double)])
    func budget(_ hourAgo: Double?, _ dayAgo: Double?, _ phoneFull: Bool, _ wait: Double) {
        let found = Stored(
            session: live(), events: [.phoneSends: phoneFull ? seconds - 100 : nil],
            textsInHour: hourAgo.map { SendCount(count: 500, reachedAt: seconds - $0) },
            textsInDay: dayAgo.map { SendCount(count: 2000, reachedAt: seconds - $0) })
        let decision = rules.issue(issue(), given: found)
        #expect(decision.outcome.limited == SendLimitReached(.budget, until: now.addingTimeInterval(wait)))
        #expect(decision.changes.isEmpty)
    }

    @Test("a full exchange refuses the text until its hour frees a place")
    func exchange() {
        let decision = rules.issue(issue(), given: Stored(session: live(), events: [.exchangeSends: seconds - 3500]))
        #expect(decision.outcome.limited == SendLimitReached(.exchange, until: now.addingTimeInterval(100)))
        #expect(decision.changes.isEmpty)
    }

    @Test("a text counts towards the budget, and the 80% and 100% marks are each crossed once")
    func budgetUse() {
        let found = Stored(
            textsInHour: SendCount(count: 399, reachedAt: nil), textsInDay: SendCount(count: 1000, reachedAt: nil))
        let use = rules.issue(issue(), given: found).outcome.budget
        #expect(use == BudgetUse(textsInHour: 400, textsInDay: 1001))
        #expect(
            rules.budgetWarning(BudgetUse(textsInHour: 400, textsInDay: 1001))?.hasPrefix("80% of the texts per hour")
                == true)
        #expect(rules.budgetWarning(BudgetUse(textsInHour: 401, textsInDay: 1001)) == nil)
        #expect(rules.budgetWarning(BudgetUse(textsInHour: 500, textsInDay: 1001))?.hasPrefix("100%") == true)
        #expect(
            rules.budgetWarning(BudgetUse(textsInHour: 10, textsInDay: 1600))?.hasPrefix("80% of the texts per day")
                == true)
    }

    @Test("a text that may have gone out (its send timed out) stays counted when its code is taken back")
    func withdrawAfterTimeout() {
        let found = Stored(code: code(sentAgo: 0))
        let phone = try! PhoneNumber(parsing: "5305550123")
        let kept = rules.withdraw(phone: phone, codeDigest: digest, pendingSession: nil, keepCount: true, given: found)
        #expect(kept.changes == [.deleteCode(phone: "+15305550123")])
        let undone = rules.withdraw(phone: phone, codeDigest: digest, pendingSession: nil, given: found)
        #expect(undone.changes == [.deleteCode(phone: "+15305550123"), .forgetNewestSend(phone: "+15305550123")])
    }

    @Test("no code yet: the code is stored, the send counted, the live session made pending")
    func firstCode() {
        let request = issue()
        let decision = rules.issue(request, given: Stored(session: live()))
        #expect(
            decision.outcome
                == IssueOutcome(
                    cooldownUntil: nil, codeExpiresAt: now + 600, keptExistingSession: true,
                    budget: BudgetUse(textsInHour: 1, textsInDay: 1)))
        #expect(
            decision.changes == [
                .recordSend(
                    phone: "+15305550123", client: "10.0.0.1", at: seconds, channel: .sms, cost: 1,
                    reference: request.reference),
                .recordEvent(
                    Event(
                        .codeSent, at: seconds, phone: "+15305550123", detail: "sms", reference: request.reference.hex,
                        client: "10.0.0.1")),
                .storeCode(
                    phone: "+15305550123",
                    code: StoredCode(
                        digest: digest, sentAt: seconds, expiresAt: seconds + 600, failedAttempts: 0, holder: existing,
                        send: SendRecord(
                            reference: request.reference, phone: "+15305550123", channel: .sms, sentAt: seconds))),
                .makePending(session: existing, phone: "+15305550123", at: seconds, until: seconds + 1200),
            ])
    }

    @Test("an expired session is deleted, never revived: the new key is used")
    func expiredSession() {
        let decision = rules.issue(issue(), given: Stored(session: live(expiresIn: 0)))
        #expect(!decision.outcome.keptExistingSession)
        #expect(decision.changes.first == .deleteSession(key: existing))
        #expect(
            decision.changes.suffix(2) == [
                .makePending(session: fresh, phone: "+15305550123", at: seconds, until: seconds + 1200),
                .recordSignInStart(client: "10.0.0.1", at: seconds),
            ])
    }

    @Test(
        "a client that started 30 sign-ins within the hour starts no other, not even during the cooldown; a kept session, the API and an unknown client are not counted"
    )
    func signInsPerClient() {
        #expect(
            rules.issueReads(issue()).list.window(.clientSignIns)
                == RecentEvents(kind: .clientSignIns, subject: "10.0.0.1", since: seconds - 3600, position: 29, until: seconds + 60))
        var api = issue()
        api.existingSession = nil
        api.newSession = nil
        #expect(rules.issueReads(api).list.window(.clientSignIns) == nil)
        #expect(rules.issueReads(issue(client: nil)).list.window(.clientSignIns) == nil)

        // The 30th newest start was 1000 s ago: full for another 2600 s, and nothing but the
        // expired session's deletion is written.
        let full = Stored(
            session: live(expiresIn: 0), code: code(sentAgo: 10), events: [.clientSignIns: seconds - 1000])
        let refused = rules.issue(issue(), given: full)
        #expect(refused.outcome.limited == SendLimitReached(.clientSignIns, until: now + 2600))
        #expect(refused.changes == [.deleteSession(key: existing)])
        // A live session is kept, not started: the same full window lets it through.
        var kept = full
        kept.session = live()
        #expect(rules.issue(issue(), given: kept).outcome.limited == nil)
        #expect(
            !rules.issue(issue(), given: kept).changes.contains(.recordSignInStart(client: "10.0.0.1", at: seconds)))
        #expect(rules.issue(issue(client: nil), given: full).outcome.limited == nil)
    }

    @Test("within the cooldown no code is sent; a login joins the code, a resend is refused", arguments: [true, false])
    func cooldown(attach: Bool) {
        let decision = rules.issue(issue(attach: attach), given: Stored(session: live(), code: code(sentAgo: 10)))
        #expect(decision.outcome.cooldownUntil == now + 20)
        #expect(decision.outcome.codeExpiresAt == now + 590)
        let joined: [AuthChange] = [
            .makePending(session: existing, phone: "+15305550123", at: seconds, until: seconds + 590 + 600)
        ]
        #expect(decision.changes == (attach ? joined : []))
    }

    @Test(
        "the cooldown ends after 30 seconds, or when the code expired",
        arguments: [(29.0, true), (30.0, false), (31.0, false)])
    func cooldownEnds(sentAgo: Double, running: Bool) {
        #expect((rules.cooldownEnd(of: code(sentAgo: sentAgo), now: seconds) != nil) == running)
    }

    /// The n-th newest send in a window `offset` seconds after the window's start: the window
    /// frees a place `offset` seconds from now.
    @Test(
        "a full window refuses the code and writes nothing; the phone's limit is told first",
        arguments: [
            (Double?.some(100), Double?.none, SendLimit?.some(.phone), 100.0),
            (nil, 50, .client, 50),
            (100, 50, .phone, 100),
            (nil, nil, nil, 0),
        ])
    func limits(phoneOffset: Double?, clientOffset: Double?, limit: SendLimit?, freesIn: Double) {
        let decision = rules.issue(
            issue(),
            given: Stored(
                session: live(),
                events: [
                    .phoneSends: phoneOffset.map { seconds - 600 + $0 },
                    .clientSends: clientOffset.map { seconds - 3600 + $0 },
                ]))
        #expect(decision.outcome.limited == limit.map { SendLimitReached($0, until: now + freesIn) })
        #expect(decision.changes.isEmpty == (limit != nil))
    }

    @Test(
        "a locked number gets no text: not a new code, not by joining one in its cooldown, and nothing is written",
        arguments: [true, false])
    func lockedNumber(attach: Bool) {
        #expect(
            rules.issueReads(issue()).list.window(.phoneFailures)
                == RecentEvents(kind: .phoneFailures, subject: "+15305550123", since: seconds - 86_400, position: 99, until: seconds + 60))
        // The 100th newest failure an hour ago: the lock ends in 23 hours; a code is in its cooldown.
        let found = Stored(
            session: live(), code: code(sentAgo: 10), events: [.phoneFailures: seconds - 3600])
        let decision = rules.issue(issue(attach: attach), given: found)
        #expect(decision.outcome.limited == SendLimitReached(.locked, until: now + 82_800))
        #expect(decision.outcome.cooldownUntil == nil)
        #expect(decision.changes.isEmpty)
    }

    @Test("a text that failed is taken back only while its code is still the stored one")
    func withdraw() {
        let mine = rules.withdraw(
            phone: phone, codeDigest: digest, pendingSession: existing,
            given: Stored(session: live(pending: "+15305550123"), code: code(sentAgo: 0)))
        #expect(
            mine.changes == [
                .deleteSession(key: existing), .deleteCode(phone: "+15305550123"),
                .forgetNewestSend(phone: "+15305550123"),
            ])
        let replaced = rules.withdraw(
            phone: phone, codeDigest: digest, pendingSession: nil,
            given: Stored(code: code(sentAgo: 0, digest: Data(repeating: 9, count: 32))))
        #expect(replaced.changes.isEmpty)
        let signedIn = rules.withdraw(
            phone: phone, codeDigest: digest, pendingSession: existing, given: Stored(session: live(userID: 4)))
        #expect(signedIn.changes.isEmpty)
    }
}
