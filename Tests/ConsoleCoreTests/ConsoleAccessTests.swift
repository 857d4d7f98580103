import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import Testing

@Suite("Who opens the console, and why they acted")
struct ConsoleAccessTests {
    let operators = Operators([try! PhoneNumber(parsing: "2125550100")])
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func session(_ phone: String = "+12125550100", method: SignInMethod = .passkey, ago: Double) -> SessionRecord {
        SessionRecord(
            pendingPhone: nil, userID: 7, userPhone: phone, lastSeenAt: 0, expiresAt: 2e9, absoluteExpiresAt: 2e9,
            createdAt: now.timeIntervalSince1970 - ago, method: method, provedAt: nil)
    }

    func decide(_ session: SessionRecord?, passkey: Bool = true, seenAgo: Double? = nil) -> ConsoleAccess {
        ConsoleAccess.decide(
            operators: operators, session: session, hasPasskey: passkey,
            lastSeen: seenAgo.map { now.timeIntervalSince1970 - $0 }, now: now)
    }

    @Test("signed out, or anyone not listed, meets an unknown page, whatever their proof")
    func strangers() {
        #expect(decide(nil) == .unknownPage)
        #expect(decide(session("+15305550123", ago: 5)) == .unknownPage)
        #expect(decide(session("+15305550123", ago: 5), seenAgo: 1) == .unknownPage)
    }

    @Test("a listed operator needs a passkey, then a sign-in with it: a text or a remembered phone never opens")
    func proof() {
        #expect(decide(session(ago: 5), passkey: false) == .needsPasskey)
        #expect(decide(session(method: .code, ago: 5)) == .needsProof)
        #expect(decide(session(method: .call, ago: 5)) == .needsProof)
        #expect(decide(session(method: .rememberedDevice, ago: 5), seenAgo: 1) == .needsProof)
        #expect(decide(session(ago: 5)) == .open(canAct: true))
        #expect(decide(session(ago: 600)) == .open(canAct: true))
    }

    @Test("past 10 minutes it only looks while its pages keep coming within 15; then it asks again")
    func idle() {
        #expect(decide(session(ago: 601)) == .needsProof)
        #expect(decide(session(ago: 601), seenAgo: 60) == .open(canAct: false))
        #expect(decide(session(ago: 3_000), seenAgo: 900) == .open(canAct: false))
        #expect(decide(session(ago: 3_000), seenAgo: 901) == .needsProof)
    }

    @Test("a clock set back does not make an old proof or an old page new")
    func clockSetBack() {
        #expect(decide(session(ago: -3_600)) == .needsProof)
        #expect(decide(session(ago: 3_000), seenAgo: -3_600) == .needsProof)
        #expect(decide(session(ago: -30)) == .open(canAct: true))  // another instance a little ahead
    }

    @Test("a reason is 3 to 500 characters, trimmed, control characters as spaces")
    func reasons() throws {
        #expect(throws: ActionReason.Refusal.missing) { try ActionReason(nil) }
        #expect(throws: ActionReason.Refusal.missing) { try ActionReason(" \n\t ") }
        #expect(throws: ActionReason.Refusal.missing) { try ActionReason("ok") }
        #expect(throws: ActionReason.Refusal.tooLong) { try ActionReason(String(repeating: "é", count: 501)) }
        #expect(try ActionReason("  lost phone\u{0}\u{7}  ").text == "lost phone")
        #expect(try ActionReason("line one\nline two").text == "line one line two")
        #expect(try ActionReason(String(repeating: "é", count: 500)).text.count == 500)
        // Counted as the databases count: 300 thumbs with a skin tone are 600 code points.
        #expect(throws: ActionReason.Refusal.tooLong) { try ActionReason(String(repeating: "👍🏽", count: 300)) }
        #expect(try ActionReason(String(repeating: "👍🏽", count: 250)).text.unicodeScalars.count == 500)
        // A right-to-left override would make the reason read otherwise than typed: it goes.
        #expect(try ActionReason("paid \u{202E}gnol\u{202C} ago").text == "paid gnol ago")
    }

    @Test("each action's event names the operator, the reason and the account")
    func events() throws {
        let event = OperatorAction.unlock.event(
            user: 3, by: .console(phone: "+12125550100"), reason: try ActionReason("called in"), at: 5)
        #expect(event.type == .operatorAction)
        #expect(event.detail == "unlock")
        #expect(event.actor == "+12125550100")
        #expect(event.reason == "called in")
        #expect(event.user == 3)
        #expect(OperatorAction.signOutEverywhere.event(user: 3, by: .shell, reason: try ActionReason("why not"), at: 5).actor == "shell")
    }

    @Test("a locked number is locked; one not proved for --dormant-after is dormant, by the sign-in guard's own rule")
    func status() {
        #expect(PersonStatus.of(lockedFor: 30, numberProvedAt: 0, now: 1e9, dormantAfter: 10) == .locked)
        #expect(PersonStatus.of(lockedFor: nil, numberProvedAt: 0, now: 11, dormantAfter: 10) == .dormant)
        // The sign-in guard's own boundary: at `--dormant-after` exactly, dormant; with the guard off, never.
        #expect(PersonStatus.of(lockedFor: nil, numberProvedAt: 0, now: 10, dormantAfter: 10) == .dormant)
        #expect(PersonStatus.of(lockedFor: nil, numberProvedAt: 0, now: 9, dormantAfter: 10) == .active)
        #expect(PersonStatus.of(lockedFor: nil, numberProvedAt: 0, now: 1e9, dormantAfter: 0) == .active)
        #expect(PersonStatus.of(lockedFor: nil, numberProvedAt: nil, now: 10, dormantAfter: 1) == .active)
    }
}
