import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// The sign-in decisions on hand-made snapshots: no database. Checking a code: its outcome, in
/// order, who may check it, and the failures it records.
@Suite("Sign-in rules, without a database: checking a code")
struct CodeCheckingRulesTests: SignInRulesFixture {
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
}
