import DeliveryCore
import Foundation

/// The provider's breaker as the service runs it (``SignInRules/providerFailed(_:given:now:)``):
/// what a failure and a recovery write, log and count. Neither throws: the person's answer is
/// the failed or sent code, whatever the bookkeeping does.
extension SignInService {
    /// Counts a provider failure on `channel`; the failure that starts a pause is logged as an
    /// error and counted in `sms_provider_pauses_total`.
    func providerFailed(_ channel: DeliveryChannel) async {
        let rules = self.rules
        let now = clock().timeIntervalSince1970
        do {
            let pausedUntil = try await store.transaction(rules.providerHealthReads(channel)) { health in
                rules.providerFailed(channel, given: health, now: now)
            }.outcome
            if let pausedUntil {
                let seconds = max(1, Int(pausedUntil.timeIntervalSince1970 - now))
                logger.error(
                    "SMS provider failing: sending paused", metadata: ["channel": "\(channel)", "seconds": "\(seconds)"])
                metrics.providerPaused(channel)
            }
        } catch {
            logger.warning("Could not count the provider's failure", metadata: ["error": "\(error)"])
        }
    }

    /// The provider took a send after failing: its failures are forgotten, on every instance.
    func providerRecovered(_ channel: DeliveryChannel) async {
        do {
            try await store.apply([.providerRecovered(channel: channel)])
            logger.notice("SMS provider answers again: sending resumed", metadata: ["channel": "\(channel)"])
        } catch {
            logger.warning("Could not note the provider's recovery", metadata: ["error": "\(error)"])
        }
    }

    /// Whether `phone` may be offered a call now: the provider places calls to it
    /// (``offersCalls(to:)``) and calls are not paused. Asked when a text could not be sent.
    public func callPossible(to phone: PhoneNumber) async -> Bool {
        guard offersCalls(to: phone) else { return false }
        let now = clock().timeIntervalSince1970
        guard let health = try? await store.read(SingleRead { $0.providerHealth(.voice) }) else { return true }
        return rules.providerPausedUntil(health, now: now) == nil
    }
}
