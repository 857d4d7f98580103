import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// The sign-in decisions on hand-made snapshots: no database. A remembered device: signing in
/// with it, and remembering one at sign-in.
@Suite("Sign-in rules, without a database: remembered devices")
struct RememberedDeviceRulesTests: SignInRulesFixture {
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
}
