import AuthCore

/// How a person's account stands, as the console shows it to an operator helping them.
public enum PersonStatus: String, Sendable, Equatable, CaseIterable {
    /// Signs in as usual.
    case active
    /// Too many wrong codes: sign-in to the number is locked for a while (the operator may lift it).
    case locked
    /// The number has not proved itself for `--dormant-after` (not 0): its next sign-in by
    /// code asks "Is this your account?", as the number may have changed hands.
    case dormant

    /// - Parameters:
    ///   - lockedFor: seconds the number's lock has left; nil when it is not locked.
    ///   - numberProvedAt: when the number last signed in with a code (or the account moved onto it).
    public static func of(lockedFor: Int?, numberProvedAt: Double?, now: Double, dormantAfter: Double)
        -> PersonStatus
    {
        if lockedFor != nil { return .locked }
        if let numberProvedAt, isDormant(numberProvedAt: numberProvedAt, now: now, dormantAfter: dormantAfter) {
            return .dormant
        }
        return .active
    }

    /// Whether a number last proved at `numberProvedAt` is dormant at `now`: AuthCore's
    /// recycled-number rule (``AuthCore/SignInRules/numberIsDormant(provedAt:now:dormantAfter:)``),
    /// so the console offers to move exactly the accounts whose next sign-in would be asked.
    public static func isDormant(numberProvedAt: Double, now: Double, dormantAfter: Double) -> Bool {
        SignInRules.numberIsDormant(provedAt: numberProvedAt, now: now, dormantAfter: dormantAfter)
    }
}
