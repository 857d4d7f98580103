import AuthCore
import Foundation

/// The console's first page, at a glance: the last 48 hours of texts and calls by delivery
/// status, codes sent against sign-ins completed, spend against the budgets, sign-ins by method,
/// and the exchanges the pumping breaker holds. Pure: made from the counts a store read.
public struct Glance: Sendable, Equatable {
    /// The hours shown, oldest first: the current hour (so far) last.
    public static let hours = 48

    /// One hour's sends.
    public struct Hour: Sendable, Equatable {
        /// When the hour began, seconds since 1970.
        public var start: Double
        public var texts = 0
        public var calls = 0
        /// Sends the provider said reached the phone.
        public var delivered = 0
        /// Sends the provider said did not (`undelivered`, `failed`).
        public var notDelivered = 0
        /// Sends with no final word yet (`sending`, `queued`, `sent`), or from a provider that never reports.
        public var awaiting = 0
        /// Codes that signed someone in.
        public var used = 0
        /// What the hour's sends cost against the budget, in texts (a call costs `--call-cost`).
        public var spent = 0

        public var sent: Int { texts + calls }

        public init(start: Double) {
            self.start = start
        }
    }

    public var hours: [Hour]
    /// Sign-ins in the 48 hours by how they were proved (EventsCore's `SignInWay` raw values),
    /// most first.
    public var signInsByMethod: [(method: String, count: Int)]
    /// Exchanges (`+1530555`) the breaker holds now, with their settled codes and how many were used.
    public var pausedExchanges: [(exchange: String, sent: Int, used: Int)]
    /// `--max-texts-per-hour` and `--max-texts-per-day`.
    public var hourlyBudget: Int
    public var dailyBudget: Int

    /// Codes sent in the 48 hours, and of them used.
    public var sent: Int { hours.reduce(0) { $0 + $1.sent } }
    public var used: Int { hours.reduce(0) { $0 + $1.used } }
    /// Used of sent, 0...1; nil with nothing sent.
    public var conversion: Double? { sent == 0 ? nil : Double(used) / Double(sent) }
    /// Spent in the last 24 hours (the daily budget's window, to the hour).
    public var spentToday: Int { hours.suffix(24).reduce(0) { $0 + $1.spent } }
    /// The most any hour spent or sent, or the hourly budget if higher: a chart's scale.
    public var peak: Int { max(hours.map { max($0.sent, $0.spent) }.max() ?? 0, 1) }

    public static func == (a: Glance, b: Glance) -> Bool {
        a.hours == b.hours && a.hourlyBudget == b.hourlyBudget && a.dailyBudget == b.dailyBudget
            && a.signInsByMethod.map(\.method) == b.signInsByMethod.map(\.method)
            && a.signInsByMethod.map(\.count) == b.signInsByMethod.map(\.count)
            && a.pausedExchanges.map(\.exchange) == b.pausedExchanges.map(\.exchange)
    }

    /// Where the 48 hours begin for `now`: the start of the hour 47 hours before the current one.
    public static func since(_ now: Double) -> Double {
        (now / 3600).rounded(.down) * 3600 - Double(hours - 1) * 3600
    }

    /// The glance from what the store counted since ``since(_:)``, under `policy`'s budgets and
    /// pumping breaker (AuthCore's rule, the same one sending obeys).
    public init(_ counts: GlanceCounts, now: Double, policy: SignInPolicy) {
        let since = Self.since(now)
        var hours = (0..<Self.hours).map { Hour(start: since + Double($0) * 3600) }
        for row in counts.sends {
            guard hours.indices.contains(row.hour) else { continue }
            if row.channel == "voice" { hours[row.hour].calls += row.count } else { hours[row.hour].texts += row.count }
            switch row.status {
            case "delivered": hours[row.hour].delivered += row.count
            case "undelivered", "failed": hours[row.hour].notDelivered += row.count
            default: hours[row.hour].awaiting += row.count
            }
            hours[row.hour].used += row.used
            hours[row.hour].spent += row.spent
        }
        self.hours = hours
        signInsByMethod = counts.signIns.sorted { ($1.count, $0.method) < ($0.count, $1.method) }
        let rules = SignInRules(policy: policy)
        pausedExchanges = counts.exchanges.filter { rules.breakerHolds(sent: $0.sent, verified: $0.used) }
            .sorted { $0.exchange < $1.exchange }
        hourlyBudget = policy.maxTextsPerHour
        dailyBudget = policy.maxTextsPerDay
    }
}

/// What a store counted for the glance.
public struct GlanceCounts: Sendable {
    /// Sends by hour (0: the first of the 48), channel (`sms`, `voice`) and delivery status.
    public var sends: [(hour: Int, channel: String, status: String, count: Int, used: Int, spent: Int)]
    /// Sign-ins by how they were proved.
    public var signIns: [(method: String, count: Int)]
    /// Each exchange's settled codes in the breaker's window, and how many were used.
    public var exchanges: [(exchange: String, sent: Int, used: Int)]

    public init(
        sends: [(hour: Int, channel: String, status: String, count: Int, used: Int, spent: Int)],
        signIns: [(method: String, count: Int)], exchanges: [(exchange: String, sent: Int, used: Int)]
    ) {
        self.sends = sends
        self.signIns = signIns
        self.exchanges = exchanges
    }
}

/// Where the console's own rows are kept: the glance's counts (one read, no decision) and the
/// operators' enrollment links.
public protocol ConsoleStore: Sendable {
    /// The console's door, in one round trip: the session with this storage key (as
    /// ``AuthCore/SignInService`` reads it) and, when its person is one of `operators`, whether
    /// they have a passkey that is not turned off. For anyone else it reads no more than the
    /// session: to them the console's addresses cost what an unknown page does.
    func sessionAndPasskey(session key: Data, operators: Operators) async throws -> (
        session: SessionRecord?, hasPasskey: Bool
    )
    /// Keeps an enrollment link (its token's SHA-256) for the operator `phone` (E.164) until `expiresAt`.
    func addEnrollment(tokenSHA256: Data, phone: String, expiresAt: Double) async throws
    /// Whether the link is unused and unexpired at `now`, and `phone`'s.
    func enrollmentIsLive(tokenSHA256: Data, phone: String, at now: Double) async throws -> Bool
    /// Uses the link up, if it is live: true when this call used it.
    func useEnrollment(tokenSHA256: Data, phone: String, at now: Double) async throws -> Bool

    /// Sends and sign-ins in the ``Glance/hours`` hours from the one `since` falls in (hours
    /// counted from it; ``Glance/since(_:)`` is the start of one), and each exchange's codes sent
    /// between `breakerSince` and `settledBy` (the breaker's window, codes whose time to be used
    /// is over) when it has at least `minCodes`.
    func glance(since: Double, breakerSince: Double, settledBy: Double, minCodes: Int) async throws -> GlanceCounts
}
