import Foundation

/// Every sign-in rule, as pure functions: given what a transaction read (``AuthSnapshot``),
/// what to answer and what to write (``AuthDecision``). Stores only read and write, so the
/// rules are the same on SQLite and PostgreSQL and are tested without a database
/// (Tests/AuthCoreTests/SignInRulesTests.swift).
///
/// Each rule comes as a pair: what it needs to read (`…Reads`), and the decision on it.
public struct SignInRules: Sendable {
    public let policy: SignInPolicy

    public init(policy: SignInPolicy) {
        self.policy = policy
    }

    /// How stale a signed-in session's `lastSeenAt` may get before a request refreshes it (and
    /// its idle expiry): keeps signed-in page views to one read, not a write each.
    public static let sessionTouchInterval: TimeInterval = 60

    /// How long an expired code is kept, so "Your code expired" (not "no code") is what people
    /// see: a day.
    public static let expiredCodeKept: TimeInterval = 86_400

    /// The read that finds the time a sliding-window limit of `max` events per `window` frees a
    /// place: the max-th newest event in the window.
    static func window(_ subject: String, max: Int, per window: TimeInterval, now: Double) -> RecentEvents {
        RecentEvents(subject: subject, since: now - window, position: max - 1)
    }

    /// When a full window (its max-th newest event at `nthNewest`) allows another event; `nil`
    /// while there is room.
    static func windowFull(nthNewest: Double?, window: TimeInterval) -> Date? {
        nthNewest.map { Date(timeIntervalSince1970: $0 + window) }
    }

    /// Whether `session` is still live at `now`.
    static func isLive(_ session: SessionRecord?, now: Double) -> Bool {
        guard let session else { return false }
        return session.expiresAt > now
    }
}
