import Foundation

/// Every sign-in rule, as pure functions: given what a transaction read (a ``ReadPlan``'s
/// `Found`), what to answer and what to write (``AuthDecision``). Stores only read and write, so the
/// rules are the same on SQLite and PostgreSQL and are tested without a database
/// (Tests/AuthCoreTests/SignInRulesTests.swift).
///
/// Each rule comes as a pair: what it reads (`…Reads`, a ``ReadPlan``), and the decision on
/// what that plan found, which is all it gets: a read the decision needs but its plan forgot
/// does not compile.
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

    /// How far after `now` a stored time may lie and still be taken as having happened: another
    /// instance's clock may be a little ahead. A time later than that was written before this
    /// clock was set back: what it started (a code, a challenge, a cooldown) counts as gone,
    /// rather than lasting that much longer (``StoredCode/isLive(at:)``).
    public static let clockSkew: TimeInterval = 60

    /// Whether `time` (seconds since 1970) has happened by `now`, give or take ``clockSkew``.
    public static func hasHappened(_ time: Double, by now: Double) -> Bool { time <= now + clockSkew }

    /// Whether `session` is still live at `now`.
    static func isLive(_ session: SessionRecord?, now: Double) -> Bool {
        guard let session else { return false }
        return session.expiresAt > now
    }
}
