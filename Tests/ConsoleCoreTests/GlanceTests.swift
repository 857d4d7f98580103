import AuthCore
import ConsoleCore
import Foundation
import Testing

@Suite("The console's glance")
struct GlanceTests {
    /// 10:20 on a day: the 48 hours begin at 11:00 two days before.
    let now = 1_800_000_000.0 - 1_800_000_000.0.truncatingRemainder(dividingBy: 3600) + 1200

    @Test("48 hours ending with the current one, each send in its hour by status; budgets and the breaker from the policy")
    func buckets() {
        let since = Glance.since(now)
        #expect(since == now - 1200 - 47 * 3600)
        var policy = SignInPolicy()
        policy.maxTextsPerHour = 40
        policy.maxTextsPerDay = 300
        let counts = GlanceCounts(
            sends: [
                (hour: 0, channel: "sms", status: "delivered", count: 3, used: 2, spent: 3),
                (hour: 0, channel: "voice", status: "failed", count: 1, used: 0, spent: 2),
                (hour: 47, channel: "sms", status: "sending", count: 2, used: 1, spent: 2),
                (hour: 47, channel: "sms", status: "undelivered", count: 1, used: 0, spent: 1),
                (hour: 48, channel: "sms", status: "delivered", count: 9, used: 9, spent: 9),  // out of range: ignored
            ],
            signIns: [(method: "passkey", count: 2), (method: "text", count: 5), (method: "call", count: 2)],
            exchanges: [
                (exchange: "+1530555", sent: 12, used: 1), (exchange: "+1415555", sent: 12, used: 6),
                (exchange: "+1212555", sent: 9, used: 0),
            ])
        let glance = Glance(counts, now: now, policy: policy)
        #expect(glance.hours.count == 48)
        #expect(glance.hours.first?.start == since)
        #expect(glance.hours[0] == {
            var hour = Glance.Hour(start: since)
            (hour.texts, hour.calls, hour.delivered, hour.notDelivered, hour.used, hour.spent) = (3, 1, 3, 1, 2, 5)
            return hour
        }())
        #expect(glance.hours[47].awaiting == 2 && glance.hours[47].notDelivered == 1)
        #expect(glance.sent == 7 && glance.used == 3)
        #expect(glance.spentToday == 3)
        #expect(glance.signInsByMethod.map(\.method) == ["text", "call", "passkey"])
        // Under 20% of at least 10 settled codes: held. 50%: not. 9 codes: too few to judge.
        #expect(glance.pausedExchanges.map(\.exchange) == ["+1530555"])
        #expect(glance.hourlyBudget == 40 && glance.dailyBudget == 300)
    }

    @Test("nothing sent: no conversion, empty hours")
    func quiet() {
        let glance = Glance(GlanceCounts(sends: [], signIns: [], exchanges: []), now: now, policy: SignInPolicy())
        #expect(glance.conversion == nil)
        #expect(glance.hours.allSatisfy { $0.sent == 0 })
    }
}
