import Foundation
import Testing

@testable import AuthCore

/// The sign-in decisions on hand-made snapshots: no database. Sessions and what is read with
/// them: their state, refreshing, tries left, the resend wait and the purge.
@Suite("Sign-in rules, without a database: sessions")
struct SessionRulesTests: SignInRulesFixture {
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
