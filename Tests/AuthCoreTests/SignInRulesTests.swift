import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// The sign-in decisions on hand-made snapshots: no database. Each row says what a transaction
/// found and what the rules must answer and write.
@Suite("Sign-in rules, without a database")
struct SignInRulesTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var seconds: Double { now.timeIntervalSince1970 }
    let phone = try! PhoneNumber(parsing: "(530) 555-0123")
    let digest = Data(repeating: 7, count: 32)
    let existing = Data(repeating: 1, count: 32)
    let fresh = Data(repeating: 2, count: 32)

    func code(sentAgo: Double, failed: Int = 0, digest: Data? = nil) -> StoredCode {
        StoredCode(
            digest: digest ?? self.digest, sentAt: seconds - sentAgo, expiresAt: seconds - sentAgo + 600,
            failedAttempts: failed)
    }

    func issue(attach: Bool = true, client: String? = "10.0.0.1") -> CodeIssue {
        CodeIssue(
            phone: phone, codeDigest: digest, existingSession: existing, newSession: fresh,
            attachSessionDuringCooldown: attach, client: client, now: now)
    }

    func live(pending: String? = nil, userID: Int64? = nil, expiresIn: Double = 100) -> SessionRecord {
        SessionRecord(
            pendingPhone: pending, userID: userID, userPhone: userID.map { _ in "+15305550123" },
            lastSeenAt: seconds - 10, expiresAt: seconds + expiresIn, absoluteExpiresAt: seconds + 1000)
    }

    // MARK: Sending

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

    // MARK: Checking

    func check(session: Data? = Data(repeating: 1, count: 32), candidate: Data? = nil) -> CodeCheck {
        CodeCheck(
            session: session, phone: phone, candidateDigest: candidate ?? digest, signedInSession: fresh, now: now)
    }

    @Test("the right code is used up and the session swapped for a fresh signed-in one")
    func rightCode() {
        let decision = rules.check(
            check(), given: Stored(session: live(pending: "+15305550123"), code: code(sentAgo: 60)))
        #expect(decision.outcome == .signedIn)
        #expect(
            decision.changes == [
                .deleteCode(phone: "+15305550123"), .deleteSession(key: existing),
                .signIn(
                    phone: "+15305550123", session: fresh, at: seconds, expiresAt: seconds + 7 * 86_400,
                    absoluteExpiresAt: seconds + 30 * 86_400),
                // Noted in the same transaction: the store names the account the number is on.
                .recordEvent(Event(.signedIn, at: seconds, phone: "+15305550123", detail: "text")),
                // A first sign-in's code was sent before its account existed: it becomes the account's.
                .adoptEvents(phone: "+15305550123", since: seconds - 600),
            ])
    }

    @Test(
        "what a code check comes to, in order: session, code, lock, attempts, lifetime, digest",
        arguments: [
            ("session for another number", "+14155550199", 60.0, 0, Double?.none, false, CheckOutcome.noPendingSession),
            ("no code", "+15305550123", -1, 0, nil, false, .noCode),
            ("locked", "+15305550123", 60, 0, 100, false, .locked(until: Date(timeIntervalSince1970: 1_800_000_100))),
            ("five wrong tries", "+15305550123", 60, 5, nil, false, .tooManyAttempts),
            ("expired", "+15305550123", 600, 0, nil, false, .expired),
            ("wrong", "+15305550123", 60, 1, nil, true, .incorrect(remainingAttempts: 3)),
            ("fifth wrong", "+15305550123", 60, 4, nil, true, .incorrect(remainingAttempts: 0)),
        ])
    func checkTable(
        _ name: String, pending: String, sentAgo: Double, failed: Int, failureAt: Double?, wrong: Bool,
        outcome: CheckOutcome
    ) {
        let found = Stored(
            session: live(pending: pending), code: sentAgo < 0 ? nil : code(sentAgo: sentAgo, failed: failed),
            events: [.phoneFailures: failureAt.map { seconds - 86_400 + $0 }])
        let decision = rules.check(check(candidate: wrong ? Data(repeating: 3, count: 32) : nil), given: found)
        #expect(decision.outcome == outcome, "\(name)")
        let counted: [AuthChange] = [
            .countWrongTry(
                phone: "+15305550123",
                digest: SignInRules.wrongTry(Data(repeating: 3, count: 32), against: code(sentAgo: 0))),
            .recordFailure(phone: "+15305550123", client: nil, at: seconds),
            .recordEvent(Event(.wrongCode, at: seconds, phone: "+15305550123")),
        ]
        let lock = failureAt.map { at in
            [AuthChange.recordEventOnce(Event(.locked, at: seconds - 86_400 + at, phone: "+15305550123"), since: seconds - 86_400 + at)]
        }
        #expect(decision.changes == (wrong ? counted : lock ?? []), "\(name)")
    }

    @Test(
        "the wrong code tried last, sent again (a reload that posts the form again), is answered alike and not counted")
    func sameWrongCodeAgain() {
        let wrong = Data(repeating: 3, count: 32)
        var stored = code(sentAgo: 60, failed: 1)
        stored.lastWrongDigest = SignInRules.wrongTry(wrong, against: stored)
        let found = Stored(session: live(pending: "+15305550123"), code: stored)
        let again = rules.check(check(candidate: wrong), given: found)
        #expect(again.outcome == .incorrect(remainingAttempts: 4))
        #expect(again.changes.isEmpty)
        // Another wrong code is a new guess, counted as ever.
        let other = rules.check(check(candidate: Data(repeating: 4, count: 32)), given: found)
        #expect(other.outcome == .incorrect(remainingAttempts: 3))
        #expect(other.changes.count == 3)
        // The same digits kept from another code (another instance that did not clear them)
        // match nothing: counted as a new try.
        var otherCode = code(sentAgo: 60, failed: 1, digest: Data(repeating: 8, count: 32))
        otherCode.lastWrongDigest = SignInRules.wrongTry(wrong, against: stored)
        let carried = rules.check(
            check(candidate: wrong), given: Stored(session: live(pending: "+15305550123"), code: otherCode))
        #expect(carried.outcome == .incorrect(remainingAttempts: 3))
        #expect(carried.changes.count == 3)
    }

    @Test(
        "a code that is not six digits is answered without a try counted, after the code's own state",
        arguments: [
            (0, 60.0, nil, CheckOutcome.malformed), (4, 60, nil, .malformed), (5, 60, nil, .tooManyAttempts),
            (0, 600, nil, .expired), (0, 60, 100.0, .locked(until: Date(timeIntervalSince1970: 1_800_000_100))),
        ] as [(Int, Double, Double?, CheckOutcome)])
    func malformedCode(failed: Int, sentAgo: Double, failureAt: Double?, outcome: CheckOutcome) {
        var request = check()
        request.candidateDigest = nil
        let found = Stored(
            session: live(pending: "+15305550123"), code: code(sentAgo: sentAgo, failed: failed),
            events: [.phoneFailures: failureAt.map { seconds - 86_400 + $0 }])
        let decision = rules.check(request, given: found)
        #expect(decision.outcome == outcome)
        // Nothing counted; a lock is only noted (once, by the store).
        #expect(decision.changes.allSatisfy { if case .recordEventOnce = $0 { true } else { false } })
        #expect(decision.changes.isEmpty == (failureAt == nil))
    }

    @Test("the API checks by number and the holder of the code, with no session; none is deleted")
    func checkWithoutSession() {
        let holder = Data(repeating: 9, count: 32)
        var bound = code(sentAgo: 1)
        bound.holder = holder
        var request = check(session: nil)
        request.holder = holder
        let decision = rules.check(request, given: Stored(code: bound))
        #expect(decision.outcome == .signedIn)
        #expect(!decision.changes.contains(.deleteSession(key: existing)))
    }

    @Test(
        "a code bound to someone else is neither compared nor counted: another session, another id, no id",
        arguments: [
            (Data?.some(Data(repeating: 1, count: 32)), Data?.none),  // the session is not the holder
            (nil, Data(repeating: 8, count: 32)),  // another verification id
            (nil, nil),  // none at all
        ])
    func notYours(_ session: Data?, _ holder: Data?) {
        var bound = code(sentAgo: 1)
        bound.holder = Data(repeating: 9, count: 32)
        var request = check(session: session, candidate: Data(repeating: 3, count: 32))
        request.holder = holder
        let decision = rules.check(request, given: Stored(session: live(pending: "+15305550123"), code: bound))
        #expect(decision.outcome == .notYours)
        #expect(decision.changes.isEmpty)
    }

    @Test("a client past its failure window is refused before anything is compared; a wrong code records its client")
    func clientFailures() {
        var request = check(candidate: Data(repeating: 3, count: 32))
        request.client = "2001:db8:1:2::/64"
        #expect(
            rules.checkReads(request).list.window(.clientFailures)
                == RecentEvents(
                    kind: .clientFailures, subject: "2001:db8:1:2::/64", since: seconds - 3600, position: 29,
                    until: seconds + 60))
        let found = Stored(session: live(pending: "+15305550123"), code: code(sentAgo: 60))
        var limited = found
        limited.events[.clientFailures] = seconds - 3000
        #expect(rules.check(request, given: limited).outcome == .clientLimited(until: now.addingTimeInterval(600)))
        #expect(rules.check(request, given: limited).changes.isEmpty)
        #expect(
            rules.check(request, given: found).changes.contains(
                .recordFailure(phone: "+15305550123", client: "2001:db8:1:2::/64", at: seconds)))
    }

    // MARK: Remembered devices

    @Test(
        "a remembered device signs in only for its own number and within its 30 days, and is rotated",
        arguments: [("+15305550123", 100.0, true), ("+14155550199", 100, false), ("+15305550123", 0, false)])
    func rememberedDevice(_ phone: String, _ expiresIn: Double, _ signsIn: Bool) {
        let device = Data(repeating: 5, count: 32)
        let rotated = Data(repeating: 6, count: 32)
        let request = RememberedSignIn(
            phone: self.phone, device: device, newDevice: rotated, session: fresh, replacedSession: existing, now: now)
        #expect(rules.rememberedSignInReads(request).list.reads == [.device(key: device)])
        #expect(rules.rememberedSignInReads(request).list.locks == [.phone("+15305550123")])
        let found = Stored(
            device: DeviceRecord(
                id: 1, userID: 4, phone: phone, createdAt: seconds - 1000, expiresAt: seconds + expiresIn))
        let decision = rules.rememberedSignIn(request, given: found)
        #expect(decision.outcome == signsIn)
        if signsIn {
            #expect(decision.changes.first == .deleteSession(key: existing))
            #expect(decision.changes.last == .rotateDevice(old: device, new: rotated, at: seconds, session: fresh))
        } else {
            #expect(decision.changes.isEmpty)
        }
    }

    @Test("a right code with \"remember this phone\" remembers the browser for 30 days from now")
    func rememberAtSignIn() {
        var request = check()
        request.rememberDevice = Data(repeating: 7, count: 32)
        let decision = rules.check(
            request, given: Stored(session: live(pending: "+15305550123"), code: code(sentAgo: 60)))
        #expect(
            decision.changes.suffix(2)
                == [
                    .rememberDevice(
                        key: Data(repeating: 7, count: 32), phone: "+15305550123", at: seconds,
                        until: seconds + 30 * 86_400,
                        session: fresh),
                    .recordEvent(Event(.deviceRemembered, at: seconds, phone: "+15305550123")),
                ])
    }

    // MARK: Sessions

    @Test("a live session's state; an expired or missing one is none")
    func sessionState() throws {
        #expect(try rules.session(existing, live(pending: "+15305550123"), now: now)?.state == .pending(phone))
        #expect(try rules.session(existing, live(expiresIn: 0), now: now) == nil)
        #expect(try rules.session(existing, nil, now: now) == nil)
        #expect(
            try rules.session(existing, live(userID: 4), now: now)?.state == .signedIn(User(id: 4, phone: phone)))
    }

    @Test("a signed-in session seen over a minute ago is refreshed, never past its absolute end")
    func touch() throws {
        var record = live(userID: 4)
        #expect(try rules.session(existing, record, now: now)?.touch == nil)
        record.lastSeenAt = seconds - 60
        #expect(
            try rules.session(existing, record, now: now)?.touch
                == .touchSession(key: existing, at: seconds, expiresAt: seconds + 1000))
        record.absoluteExpiresAt = seconds + 30 * 86_400
        #expect(
            try rules.session(existing, record, now: now)?.touch
                == .touchSession(key: existing, at: seconds, expiresAt: seconds + 7 * 86_400))
    }

    @Test("corrupt session rows are a typed error, not a crash")
    func corruptSession() {
        #expect(throws: StoredDataCorrupt.self) {
            try rules.session(existing, live(pending: "not a number"), now: now)
        }
        var neither = live()
        neither.userID = nil
        #expect(throws: StoredDataCorrupt.self) { try rules.session(existing, neither, now: now) }
    }

    @Test("the tries a live code has left; none said for no code or an expired one")
    func triesLeft() {
        #expect(rules.triesLeft(code(sentAgo: 10), now: now) == 5)
        #expect(rules.triesLeft(code(sentAgo: 10, failed: 4), now: now) == 1)
        #expect(rules.triesLeft(code(sentAgo: 10, failed: 5), now: now) == 0)
        #expect(rules.triesLeft(code(sentAgo: 600), now: now) == nil)
        #expect(rules.triesLeft(nil, now: now) == nil)
    }

    @Test("the resend wait and the purge cut-offs")
    func waitsAndPurge() {
        #expect(rules.resendWait(code(sentAgo: 10), now: now) == 20)
        #expect(rules.resendWait(code(sentAgo: 40), now: now) == 0)
        #expect(rules.resendWait(nil, now: now) == 0)
        #expect(
            rules.purgeCutoffs(now: now)
                == PurgeCutoffs(
                    sessionsExpiredBy: seconds, codesExpiredBy: seconds - 86_400, sendsBefore: seconds - 3600,
                    failuresBefore: seconds - 86_400, signInStartsBefore: seconds - 3600,
                    recoveryFailuresBefore: seconds - 3600, eventsBefore: seconds - 400 * 86_400))
    }
}
