import ArgumentParser
import AuthCore

/// The `webapp` options that bound sign-in: how many texts go out (per number, per client, per
/// exchange, and the spend budget for everyone) and how many wrong codes a number takes.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-codes-per-phone"), help: "Most codes texted to one number per 10 minutes.")
    var maxCodesPerPhone = SignInPolicy().maxCodesPerPhone

    @Option(
        name: .customLong("max-codes-per-client"),
        help: "Most codes asked for from one client (an IPv4 address or an IPv6 /64) per hour.")
    var maxCodesPerClient = SignInPolicy().maxCodesPerClient

    @Option(
        name: .customLong("max-texts-per-exchange"),
        help: "Most texts per hour to numbers of one exchange (area code and the next three digits).")
    var maxTextsPerExchange = SignInPolicy().maxTextsPerExchange

    @Option(
        name: .customLong("max-texts-per-hour"),
        help: "Spend budget: most texts per hour to anyone (past it: 503, and a warning in the log at 80%).")
    var maxTextsPerHour = SignInPolicy().maxTextsPerHour

    @Option(name: .customLong("max-texts-per-day"), help: "Spend budget: most texts per day to anyone.")
    var maxTextsPerDay = SignInPolicy().maxTextsPerDay

    @Option(
        name: .customLong("max-sign-ins-per-client"),
        help: "Most sign-ins (pending sessions) one client may start per hour.")
    var maxSignInsPerClient = SignInPolicy().maxSignInsPerClient

    @Option(
        name: .customLong("max-passkey-challenges-per-client"),
        help: "Most unanswered passkey sign-in challenges one client may hold (each lives 5 minutes).")
    var maxPasskeyChallengesPerClient = SignInPolicy().maxPasskeyChallengesPerClient

    @Option(
        name: .customLong("max-failures-per-phone"),
        help: "Failed codes per number in 24 hours before sign-in to it is locked.")
    var maxFailuresPerPhone = SignInPolicy().maxFailuresPerPhone

    @Option(name: .customLong("call-cost"), help: "What a call counts in the texts budget.")
    var callCost = SignInPolicy().callCost

    @Option(
        name: .customLong("breaker-min-codes"),
        help: "Pumping breaker: codes to one exchange in an hour (each past its 10 minutes) before it may pause.")
    var breakerMinCodes = SignInPolicy().breakerMinCodes

    @Option(
        name: .customLong("breaker-min-conversion"),
        help: "Pumping breaker: the share of those codes that must have been used (0 to 1; 0 turns it off).")
    var breakerMinConversion = SignInPolicy().breakerMinConversion

    @Option(
        name: .customLong("warn-conversion-below"),
        help: "Warn (log and metric) when under this share of the last hour's codes are used (0 to 1).")
    var warnConversionBelow = SignInPolicy().warnConversionBelow

    @Option(
        name: .customLong("warn-delivery-below"),
        help: "Warn when under this share of the last hour's texts and calls are delivered (0 to 1).")
    var warnDeliveryBelow = SignInPolicy().warnDeliveryBelow

    @Option(
        name: .customLong("confirm-within"),
        help: "Minutes a sign-in by code or passkey counts as proof for something sensitive (\"Confirm it's you\").")
    var confirmWithin = Int(SignInPolicy().confirmWithin / 60)

    @Option(
        name: .customLong("dormant-after"),
        help: "Days after which a number that has not signed in with a code may have changed hands (\"Is this your account?\"); 0 turns the guard off.")
    var dormantAfter = Int(SignInPolicy().dormantAfter / 86_400)

    @Option(
        name: .customLong("event-retention-days"),
        help: "Days events are kept (Recent activity shows the last 90; webapp events prints them all), then deleted.")
    var eventRetentionDays = Int(SignInPolicy().eventRetention / 86_400)

    /// The option names that may also come from `WEBAPP_*` variables.
    static let names = [
        "max-codes-per-phone", "max-codes-per-client", "max-texts-per-exchange", "max-texts-per-hour",
        "max-texts-per-day", "max-sign-ins-per-client", "max-passkey-challenges-per-client", "max-failures-per-phone",
        "call-cost", "breaker-min-codes",
        "breaker-min-conversion", "warn-conversion-below", "warn-delivery-below", "confirm-within",
        "dormant-after", "event-retention-days",
    ]

    func validate() throws {
        for (name, value) in [
            ("--max-codes-per-phone", maxCodesPerPhone), ("--max-codes-per-client", maxCodesPerClient),
            ("--max-texts-per-exchange", maxTextsPerExchange), ("--max-texts-per-hour", maxTextsPerHour),
            ("--max-texts-per-day", maxTextsPerDay), ("--max-sign-ins-per-client", maxSignInsPerClient),
            ("--max-failures-per-phone", maxFailuresPerPhone), ("--call-cost", callCost),
            ("--max-passkey-challenges-per-client", maxPasskeyChallengesPerClient),
            ("--breaker-min-codes", breakerMinCodes),
        ] where value < 1 {
            throw ValidationError("\(name) must be at least 1.")
        }
        for (name, value) in [
            ("--breaker-min-conversion", breakerMinConversion), ("--warn-conversion-below", warnConversionBelow),
            ("--warn-delivery-below", warnDeliveryBelow),
        ] where !(0...1).contains(value) {
            throw ValidationError("\(name) must be between 0 and 1.")
        }
        guard (1...1440).contains(confirmWithin) else {
            throw ValidationError("--confirm-within must be between 1 and 1440 minutes.")
        }
        guard (0...3650).contains(dormantAfter) else {
            throw ValidationError("--dormant-after must be between 0 (off) and 3650 days.")
        }
        guard (90...3650).contains(eventRetentionDays) else {
            throw ValidationError("--event-retention-days must be between 90 (what Recent activity shows) and 3650.")
        }
        guard callCost <= maxTextsPerHour else {
            throw ValidationError(
                "--call-cost must not be more than --max-texts-per-hour, or no call could ever go out.")
        }
    }

    /// These options applied to the sign-in policy.
    func apply(to policy: inout SignInPolicy) {
        policy.maxCodesPerPhone = maxCodesPerPhone
        policy.maxCodesPerClient = maxCodesPerClient
        policy.maxTextsPerExchange = maxTextsPerExchange
        policy.maxTextsPerHour = maxTextsPerHour
        policy.maxTextsPerDay = maxTextsPerDay
        policy.maxSignInsPerClient = maxSignInsPerClient
        policy.maxPasskeyChallengesPerClient = maxPasskeyChallengesPerClient
        policy.maxFailuresPerPhone = maxFailuresPerPhone
        policy.callCost = callCost
        policy.breakerMinCodes = breakerMinCodes
        policy.breakerMinConversion = breakerMinConversion
        policy.warnConversionBelow = warnConversionBelow
        policy.warnDeliveryBelow = warnDeliveryBelow
        policy.confirmWithin = Double(confirmWithin * 60)
        policy.dormantAfter = Double(dormantAfter) * 86_400
        policy.eventRetention = Double(eventRetentionDays) * 86_400
    }
}
