import DeliveryCore
import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// Events are written by the changes they describe, in the same transaction, on every backend;
/// "Recent activity" and the operator's export read them back.
@Suite("Events, on every backend")
struct EventStoreTests {
    let phone = "+15305550123"

    @Test("a sign-in notes its code, a wrong try, the delivery and the sign-in itself, for the account the number is on", arguments: Backend.all)
    func signIn(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.9")
            let reference = try #require(f.sms.sent.last).reference
            _ = try await f.service.recordDelivery(DeliveryReport(providerID: "SM1", status: .delivered), for: reference)
            f.clock.advance(by: 1)
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.verify(session: pending.session, codeInput: f.wrongCode(), client: "203.0.113.9")
            }
            let signedIn = try await f.service.verify(
                session: pending.session, codeInput: f.sms.lastCode!, client: "203.0.113.9")
            let now = f.clock.now.timeIntervalSince1970
            let events = try await database.events.activity(user: signedIn.user.id, since: 0, before: nil, limit: 10)
            // Newest first; the code and the wrong try, written before the account existed, are
            // its own once it signs in with that code.
            #expect(events.map(\.event.type) == [.signedIn, .wrongCode, .codeSent])
            #expect(events.first?.event.detail == "text")
            #expect(events.first?.event.network == "203.0.113.0/24")

            let all = try await database.events.export(EventFilter(phone: phone), after: 0, limit: 10)
            #expect(all.map(\.event.type) == [.codeSent, .wrongCode, .signedIn])
            #expect(all[0].status == "delivered" && all[0].event.detail == "sms")
            #expect(all[0].event.network == "203.0.113.0/24")
            #expect(all.allSatisfy { $0.event.at <= now })
            #expect(try await database.events.export(EventFilter(type: .wrongCode), after: 0, limit: 10).count == 1)
            #expect(try await database.events.export(EventFilter(phone: "+14155550100"), after: 0, limit: 10).isEmpty)
            #expect(try await database.events.export(EventFilter(since: now + 1), after: 0, limit: 10).isEmpty)
            // Paged by id: the second page starts after the first's last.
            let first = try await database.events.export(EventFilter(), after: 0, limit: 2)
            let rest = try await database.events.export(EventFilter(), after: first.last!.id, limit: 10)
            #expect((first + rest).map(\.id) == all.map(\.id))
        }
    }

    @Test("signing out, elsewhere and by expiry are noted for the account; the purge forgets events after the retention", arguments: Backend.all)
    func endings(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            func signIn(agent: String) async throws -> SignInService.SignedIn {
                let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
                f.clock.advance(by: 1)
                let signedIn = try await f.service.verify(
                    session: pending.session, pendingFor: try PhoneNumber(parsing: phone), codeInput: f.sms.lastCode!,
                    userAgent: agent)
                f.clock.advance(by: 31)
                return signedIn
            }
            let one = try await signIn(agent: "One")
            let two = try await signIn(agent: "Two")
            let three = try await signIn(agent: "Three")
            try await f.service.signOut(session: one.session, by: one.user.id, userAgent: "One")
            #expect(try await f.service.signOutEverywhereElse(of: two.user, current: two.session, currentDevice: nil) == 1)
            // Two is left to expire (Three was signed out from Two).
            _ = three
            f.clock.advance(by: 31 * 86_400)
            _ = try await f.service.purgeExpired()
            let events = try await database.events.activity(user: one.user.id, since: 0, before: nil, limit: 20)
            let ended = events.filter { $0.event.type == .signedOut }
            #expect(ended.map { $0.event.detail ?? "" }.sorted() == ["expired", "signed_out", "signed_out_elsewhere"])
            #expect(Set(ended.compactMap(\.event.userAgent)) == ["One", "Two", "Three"])
            // Each names its session as the apps it signed in to know it (Back-Channel Logout's sid).
            #expect(
                Set(ended.compactMap(\.event.reference))
                    == Set([one, two, three].map { SessionToken.sid(ofStorageKey: $0.session.storageKey) }))
            // A second purge notes nothing twice.
            _ = try await f.service.purgeExpired()
            #expect(try await database.events.activity(user: one.user.id, since: 0, before: nil, limit: 20).count == events.count)
            // 400 days on, all of it is gone.
            f.clock.advance(by: 400 * 86_400)
            _ = try await f.service.purgeExpired()
            #expect(try await database.count("events") == 0)
        }
    }

    @Test("an app connected once (a wider consent is the same connection) and disconnected; new recovery codes; all noted", arguments: Backend.all)
    func apps(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            let user = try await f.service.verify(session: pending.session, codeInput: f.sms.lastCode!).user
            let now = f.clock.now.timeIntervalSince1970
            try await database.oidc.grantConsent(user: user.id, client: "notes", scopes: [.openid], at: now)
            try await database.oidc.grantConsent(user: user.id, client: "notes", scopes: [.openid, .phone], at: now + 1)
            try await database.oidc.revokeConsent(user: user.id, client: "notes", at: now + 2)
            try await database.account.replaceRecoveryCodes(user: user.id, digests: [Data(repeating: 1, count: 32)], at: now + 3)
            let events = try await database.events.activity(user: user.id, since: 0, before: nil, limit: 10)
            #expect(events.prefix(3).map(\.event.type) == [.recoveryCodesMade, .appDisconnected, .appConnected])
            #expect(events.filter { $0.event.app == "notes" }.count == 2)
        }
    }

    @Test("a lock is noted once, dated when it began, however many tries it refuses", arguments: Backend.all)
    func lock(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxFailuresPerPhone = 2
            let f = ServiceFixture(database, policy: policy)
            let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            for _ in 0..<2 {
                await #expect(throws: SignInError.incorrectCode) {
                    _ = try await f.service.verify(session: pending.session, codeInput: f.wrongCode())
                }
            }
            let lockedAt = f.clock.now.timeIntervalSince1970
            for _ in 0..<3 {
                f.clock.advance(by: 5)
                await #expect(throws: SignInError.self) {
                    _ = try await f.service.verify(session: pending.session, codeInput: f.sms.lastCode!)
                }
            }
            let locks = try await database.events.export(EventFilter(type: .locked), after: 0, limit: 10)
            #expect(locks.count == 1)
            #expect(locks.first?.event.at == lockedAt && locks.first?.event.phone == phone)
        }
    }

    @Test("a change of number: the new number's code and wrong try become the account's, with the change and its browser", arguments: Backend.all)
    func numberChange(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            let alice = try await f.service.verify(session: pending.session, codeInput: f.sms.lastCode!).user
            f.clock.advance(by: 60)
            let toNew = try await f.service.requestCode(phoneInput: "4155550177", session: nil, client: "198.51.100.4")
            let new = try PhoneNumber(parsing: "4155550177")
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await f.service.moveAccount(of: alice, to: new, session: toNew.session, codeInput: f.wrongCode())
            }
            _ = try await f.service.moveAccount(
                of: alice, to: new, session: toNew.session, codeInput: f.sms.lastCode!, client: "198.51.100.4",
                userAgent: "Phone")
            let events = try await database.events.activity(user: alice.id, since: 0, before: nil, limit: 10)
            #expect(events.prefix(3).map(\.event.type) == [.numberChanged, .wrongCode, .codeSent])
            #expect(events.first?.event.userAgent == "Phone" && events.first?.event.network == "198.51.100.0/24")
            #expect(events.first?.event.phone == "+14155550177")
        }
    }

    @Test("webhook deliveries: an endpoint starts after the newest event, is claimed by one at a time, moves past each event, waits after a failure, pauses, and is resumed by the operator; a sender whose lease was taken over writes nothing", arguments: Backend.all)
    func deliveries(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            let hooks = database.webhooks
            let now = f.clock.now.timeIntervalSince1970
            try await hooks.register(["https://a.example/hook", "https://b.example/hook"], as: .webhook, now: now)
            try await hooks.register(["https://a.example/hook"], as: .webhook, now: now)  // again: nothing changes
            // Older events are not sent to a new endpoint.
            let first = try #require(try await hooks.claimDue(.webhook, now: now, lease: 60))
            #expect(try await hooks.next(after: first.cursor, limit: 10).isEmpty)
            // Leased: the other endpoint is the one due now, and then none.
            let second = try #require(try await hooks.claimDue(.webhook, now: now, lease: 60))
            #expect(second.url != first.url)
            #expect(try await hooks.claimDue(.webhook, now: now, lease: 60) == nil)
            #expect(try await hooks.release(first, next: now + 1))
            #expect(try await hooks.release(second, next: now + 1))

            f.clock.advance(by: 31)
            _ = try await f.service.requestCode(phoneInput: "4155550100", session: nil)
            let later = now + 31
            let a = try #require(try await hooks.claimDue(.webhook, now: later, lease: 60))
            let event = try #require(try await hooks.next(after: a.cursor, limit: 10).first)
            #expect(event.event.type == .codeSent && event.event.phone == "+14155550100")
            // A failure: tried again when the schedule says, the lease given back, the error kept.
            #expect(try await hooks.failed(a, retryAt: later + 5, error: "HTTP 500", now: later))
            let b = try #require(try await hooks.claimDue(.webhook, now: later, lease: 60))
            #expect(b.url != a.url)
            #expect(try await hooks.advance(b, past: event.id, now: later))
            #expect(try await hooks.release(b, next: later + 1))
            let again = try #require(try await hooks.claimDue(.webhook, now: later + 1, lease: 60))
            #expect(again.url == b.url && again.cursor == event.id)  // due again, nothing new
            #expect(try await hooks.release(again, next: later + 7))
            // The failed one's retry comes before the quiet one's next look.
            let retried = try #require(try await hooks.claimDue(.webhook, now: later + 6, lease: 60))
            #expect(retried.url == a.url && retried.failures == 1 && retried.cursor == a.cursor)
            // The schedule spent: paused, never claimed again.
            #expect(try await hooks.failed(retried, retryAt: nil, error: "timed out", now: later + 6))
            // A sender whose lease ran out (stalled past it) and was claimed again writes nothing.
            let stalled = try #require(try await hooks.claimDue(.webhook, now: later + 7, lease: 60))
            #expect(stalled.url == b.url)
            let taken = try #require(try await hooks.claimDue(.webhook, now: later + 67, lease: 60))
            #expect(taken.url == b.url)
            #expect(try await hooks.failed(stalled, retryAt: later + 500, error: "late", now: later + 67) == false)
            #expect(try await hooks.advance(stalled, past: event.id + 1_000, now: later + 67) == false)
            #expect(try await hooks.release(stalled, next: later + 500) == false)
            #expect(try await hooks.release(taken, next: later + 68))
            #expect(try await hooks.endpoints().first { $0.url == b.url }?.cursor == event.id)
            for _ in 0..<2 {
                let due = try #require(try await hooks.claimDue(.webhook, now: later + 86_400, lease: 60))
                #expect(due.url == b.url)
                #expect(try await hooks.release(due, next: later + 86_400))
            }
            // Claimed at once by several instances: one of them gets it.
            let claims = try await withThrowingTaskGroup(of: DeliveryCursor?.self) { group in
                for _ in 0..<8 { group.addTask { try await hooks.claimDue(.webhook, now: later + 86_400, lease: 60) } }
                return try await group.reduce(into: [DeliveryCursor?]()) { $0.append($1) }
            }
            #expect(claims.compactMap { $0 }.count == 1)
            let winner = try #require(claims.compactMap { $0 }.first)
            // The operator's view: the paused one, what it waits to send and why.
            let status = try await hooks.endpoints()
            #expect(status.map(\.url) == [a.url, b.url].sorted())
            let paused = try #require(status.first { $0.url == a.url })
            #expect(paused.pausedAt == later + 6 && paused.lastError == "timed out" && paused.behind >= 1)
            #expect(status.first { $0.url == b.url }?.pausedAt == nil)
            // Resumed: due at once, from where it stood, its failures forgotten.
            #expect(try await hooks.resume("https://nowhere.example/hook", now: later + 86_500) == false)
            #expect(try await hooks.resume(a.url, now: later + 86_500))
            #expect(try await hooks.release(winner, next: later + 90_000))
            let resumed = try #require(try await hooks.claimDue(.webhook, now: later + 86_500, lease: 60))
            #expect(resumed.url == a.url && resumed.failures == 0 && resumed.cursor == a.cursor)
        }
    }
}
