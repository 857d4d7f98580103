import DeliveryCore
import Foundation

/// How the provider has been doing on one channel, as sending decides on it: its failures in a
/// row, and until when sending is paused (seconds since 1970). No row: no failures.
public struct ProviderHealth: Sendable, Equatable {
    public var failures: Int
    public var pausedUntil: Double?

    public init(failures: Int = 0, pausedUntil: Double? = nil) {
        self.failures = failures
        self.pausedUntil = pausedUntil
    }
}

extension SignInRules {
    // MARK: The provider's breaker (SignInPolicy.providerFailuresToPause)

    /// Until when sending on the channel is paused, if it is at `now`. A pause ending further
    /// off than any pause can (``SignInPolicy/providerPauseMax``) was set before the clock was
    /// set back: it holds no one.
    func providerPausedUntil(_ health: ProviderHealth, now: Double) -> Double? {
        guard let until = health.pausedUntil, until > now,
            until <= now + policy.providerPauseMax + SignInRules.clockSkew
        else { return nil }
        return until
    }

    /// A send let through after a pause is the provider's trial: while it is out, the others
    /// are held (so a dead provider gets one try per pause, not one per person); its success
    /// ends the pause, its failure starts a longer one.
    func providerTrial(_ health: ProviderHealth, channel: DeliveryChannel, now: Double) -> AuthChange? {
        guard health.failures >= policy.providerFailuresToPause else { return nil }
        return .holdProvider(channel: channel, until: now + policy.providerTrialHold)
    }

    /// What ``providerFailed(_:given:now:)`` reads: the channel's health, with sends locked so
    /// that two failures at once both count.
    public func providerHealthReads(_ channel: DeliveryChannel) -> SingleRead<ProviderHealth> {
        SingleRead(locks: [.allSends]) { $0.providerHealth(channel) }
    }

    /// One more provider failure in a row on `channel`: from the ``SignInPolicy/providerFailuresToPause``-th,
    /// sending pauses for ``SignInPolicy/providerPause``, doubled for each failure after it, at
    /// most ``SignInPolicy/providerPauseMax``. The outcome is the pause's end, when this failure
    /// (re)started one.
    public func providerFailed(_ channel: DeliveryChannel, given health: ProviderHealth, now: Double)
        -> AuthDecision<Date?>
    {
        let failures = health.failures + 1
        let over = failures - policy.providerFailuresToPause
        guard over >= 0 else {
            return AuthDecision(nil, changes: [.providerFailed(channel: channel, failures: failures, pausedUntil: nil)])
        }
        let pause = min(policy.providerPauseMax, policy.providerPause * pow(2, Double(min(over, 16))))
        let until = now + pause
        return AuthDecision(
            Date(timeIntervalSince1970: until),
            changes: [.providerFailed(channel: channel, failures: failures, pausedUntil: until)])
    }
}
