import DeliveryCore
import Foundation

/// What the service says and counts when a sending limit refuses a code, and how it watches the
/// spend budget.
extension SignInService {
    /// The error, log line and metric for a sending limit that refused a code.
    func limitReached(_ limited: SendLimitReached, phone: PhoneNumber, channel: DeliveryChannel, now: Date)
        -> SignInError
    {
        let seconds = max(1, wholeSeconds(from: now, to: limited.until))
        let (name, error): (String, SignInError) =
            switch limited.limit {
            case .budget:
                (
                    "budget",
                    channel == .voice ? .callsUnavailable(seconds: seconds) : .textsUnavailable(seconds: seconds)
                )
            case .phone: ("phone", .tooManyCodesForPhone(seconds: seconds))
            case .client: ("client", .tooManyCodesFromClient(seconds: seconds))
            case .exchange: ("exchange", .tooManyCodesForExchange(seconds: seconds))
            case .exchangePaused: ("exchange_paused", .tooManyCodesForExchange(seconds: seconds))
            case .phoneCalls: ("phone_calls", .tooManyCallsForPhone(seconds: seconds))
            case .locked: ("failures", .phoneLocked(seconds: seconds))
            case .clientSignIns: ("client_sign_ins", .tooManySignInsFromClient(seconds: seconds))
            case .providerPaused: ("provider_paused", .deliveryPaused(channel, seconds: seconds))
            }
        metrics.limitHit(name)
        if limited.limit == .budget, channel == .voice {
            logger.notice(
                "SMS budget has no room for a call (texts may still fit)", metadata: ["seconds": "\(seconds)"])
        } else if limited.limit == .budget {
            logger.warning("SMS budget used up: no texts until it frees", metadata: ["seconds": "\(seconds)"])
        } else if limited.limit == .providerPaused {
            logger.notice(
                "SMS provider paused: code not sent", metadata: ["channel": "\(channel)", "seconds": "\(seconds)"])
        } else if limited.limit == .exchangePaused {
            logger.warning(
                "Pumping breaker: sends to this exchange pause, its recent codes were hardly ever used",
                metadata: ["exchange": "\(SignInRules.exchange(of: phone))", "seconds": "\(seconds)"])
        } else {
            logger.notice("Sending limit reached", metadata: ["to": "\(phone.masked)", "limit": "\(name)"])
        }
        return error
    }

    /// Reports the spend budget after a text is counted: the gauges, and a warning at 80% and 100%.
    func watch(_ budget: BudgetUse) {
        metrics.budgetRemaining(
            hour: max(0, policy.maxTextsPerHour - budget.textsInHour),
            day: max(0, policy.maxTextsPerDay - budget.textsInDay))
        if let warning = rules.budgetWarning(budget) { logger.warning("SMS budget: \(warning)") }
    }
}
