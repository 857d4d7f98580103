import ConsoleCore
import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// An operator's actions on every backend: each change with the event naming the operator and
/// why, in one transaction; the number's account found by the number.
@Suite("Operator actions, on every backend")
struct OperatorActionTests {
    /// Signs the number in by code; the sign-in.
    func signIn(_ f: ServiceFixture) async throws -> SignInService.SignedIn {
        let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
        f.clock.advance(by: 1)
        let signedIn = try await f.service.verify(session: pending.session, codeInput: f.sms.lastCode!)
        f.clock.advance(by: 60)
        return signedIn
    }

    @Test("sign out everywhere ends every session and remembered phone, with the operator's event", arguments: Backend.all)
    func signOutEverywhere(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let first = try await signIn(f)
            let second = try await signIn(f)
            let id = try #require(try await database.account.account(holding: "+15305550123"))
            #expect(id == first.user.id)
            #expect(try await database.account.account(holding: "+14155550100") == nil)
            let event = OperatorAction.signOutEverywhere.event(
                user: id, by: .console(phone: "+12125550100"), reason: try ActionReason("lost phone"),
                at: f.clock.now.timeIntervalSince1970)
            let ended = try await f.service.operatorActions.signOutEverywhere(of: first.user, recording: event)
            #expect(ended >= 2)
            #expect(try await f.service.state(of: first.session) == nil)
            #expect(try await f.service.state(of: second.session) == nil)
            let recorded = try await database.events.export(EventFilter(type: .operatorAction), after: 0, limit: 5)
            #expect(recorded.map(\.event.actor) == ["+12125550100"])
            #expect(recorded.map(\.event.reason) == ["lost phone"])
            #expect(recorded.map(\.event.detail) == ["sign_out_everywhere"])
            #expect(recorded.map(\.event.user) == [id])
        }
    }

    @Test("lifting a lock forgets the number's wrong codes: its code works again", arguments: Backend.all)
    func liftLock(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxFailuresPerPhone = 3
            let f = ServiceFixture(database, policy: policy)
            let phone = try PhoneNumber(parsing: "5305550123")
            let pending = try await f.service.requestCode(phoneInput: "5305550123", session: nil, client: "203.0.113.9")
            for _ in 0..<3 {
                _ = try? await f.service.verify(session: pending.session, codeInput: f.wrongCode(), client: "203.0.113.9")
            }
            #expect(try await f.service.operatorActions.lockedFor(phone) != nil)
            let event = OperatorAction.unlock.event(
                user: nil, by: .shell, reason: try ActionReason("called in"), at: f.clock.now.timeIntervalSince1970)
            try await f.service.operatorActions.liftLock(on: phone, recording: event)
            #expect(try await f.service.operatorActions.lockedFor(phone) == nil)
            let signedIn = try await f.service.verify(
                session: pending.session, codeInput: f.sms.lastCode!, client: "203.0.113.9")
            #expect(signedIn.user.phone == phone)
            let recorded = try await database.events.export(EventFilter(type: .operatorAction), after: 0, limit: 5)
            #expect(recorded.map(\.event.actor) == ["shell"])
        }
    }
}
