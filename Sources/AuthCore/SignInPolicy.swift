import Foundation

/// The numbers behind sign-in. Defaults follow the product spec (and Twilio Verify, NIST
/// SP 800-63B §5.1.3 for out-of-band codes).
public struct SignInPolicy: Sendable {
    /// How long a code is valid: 10 minutes.
    public var codeLifetime: TimeInterval = 600
    /// How long before the same phone may be sent another code: 30 seconds.
    public var resendCooldown: TimeInterval = 30
    /// Wrong tries after which a code is dead: 5.
    public var maxAttemptsPerCode = 5
    /// How long a pending sign-in outlives its code: long enough to say "Your code expired" on
    /// the Verify page and offer a resend to the same number, but the code itself never works
    /// after ``codeLifetime``: 10 minutes.
    public var pendingSessionGrace: TimeInterval = 600
    /// A signed-in session ends after this long without a request: 7 days.
    public var sessionIdleTimeout: TimeInterval = 7 * 86_400
    /// A signed-in session ends this long after sign-in whatever happens: 30 days.
    public var sessionLifetime: TimeInterval = 30 * 86_400
    /// How long a remembered device signs its person in without a code, counted from the
    /// sign-in that remembered it (using it does not extend it): 30 days.
    public var deviceLifetime: TimeInterval = 30 * 86_400
    /// "Confirm it's you": how long a sign-in by code or passkey counts as a fresh proof for
    /// something sensitive (``Confirmation``): 10 minutes.
    public var confirmWithin: TimeInterval = Confirmation.defaultWithin

    /// Most codes sent to one phone number per ``codesPerPhoneWindow``: 5 per 10 minutes
    /// (Twilio Verify's limit), against SMS pumping and harassing a stranger's phone.
    public var maxCodesPerPhone = 5
    public var codesPerPhoneWindow: TimeInterval = 600
    /// Most codes asked for from one client address per ``codesPerClientWindow``: 20 per hour.
    public var maxCodesPerClient = 20
    public var codesPerClientWindow: TimeInterval = 3600
    /// Most texts to numbers of one exchange (area code and the next three digits, `+1530555`)
    /// per ``textsPerExchangeWindow``: 30 per hour. SMS pumping walks a block of numbers; a
    /// real exchange rarely sees that many sign-ins an hour.
    public var maxTextsPerExchange = 30
    public var textsPerExchangeWindow: TimeInterval = 3600
    /// The spend budget: most texts sent per hour and per day, to every number from every client
    /// together. Rotating addresses and numbers cannot get past it; at Twilio's US price
    /// (about $0.0083 a text, carrier fees on top) the defaults bound the bill near $4 an hour
    /// and $17 a day.
    public var maxTextsPerHour = 500
    public var maxTextsPerDay = 2000
    /// What a call costs against the budget, in texts: 2. Twilio bills a US call by the started
    /// minute (about $0.014; the call that reads a code twice lasts 25 to 35 seconds) and a text
    /// at about $0.0083 plus carrier fees, so a call costs about what two texts do.
    public var callCost = 2
    /// Most calls to one number per ``callsPerPhoneWindow``: 3 an hour. A call rings a phone
    /// whoever asked for it, so calls get a limit of their own under the per-number one (which
    /// they count towards too), against using "Call me" to harass a stranger.
    public var maxCallsPerPhone = 3
    public var callsPerPhoneWindow: TimeInterval = 3600

    /// The pumping breaker (Twilio Fraud Guard's idea, from our own data): when the numbers of one
    /// exchange (`+1530555`) were sent at least ``breakerMinCodes`` codes that had their
    /// ``codeLifetime`` to be used within the last ``breakerWindow``, and fewer than
    /// ``breakerMinConversion`` of them were, sends to that exchange pause until the window no
    /// longer holds that many. Honest sign-ins use most of their codes (a person asks for a code
    /// to type it); SMS pumping sends codes nobody types, to blocks of numbers it owns. Defaults:
    /// 10 settled codes in an hour with under 20% used: rare for real people (most exchanges see
    /// a handful of sign-ins a day), certain for a pumping run, and numbers elsewhere are untouched.
    public var breakerMinCodes = 10
    public var breakerMinConversion = 0.2
    public var breakerWindow: TimeInterval = 3600

    /// The provider's breaker: after ``providerFailuresToPause`` failures in a row on a channel
    /// (no connection, a 5xx, no answer in time; never a message it refused), sending on that
    /// channel pauses for everyone, on every instance, for ``providerPause``; then one send tries
    /// it again (the others wait up to ``providerTrialHold`` for it), and each failed try doubles
    /// the pause, up to ``providerPauseMax``. The first send it takes ends the pause. A dead
    /// provider then gets a try every few minutes instead of one per person, and people are told
    /// at once that texts cannot be sent rather than after a timeout each.
    public var providerFailuresToPause = 3
    public var providerPause: TimeInterval = 30
    public var providerPauseMax: TimeInterval = 300
    /// The longest one send takes (two attempts of 5 s and the pause between), with room.
    public var providerTrialHold: TimeInterval = 15

    /// Operators are warned (log and metric) when, over the last hour, fewer than this share of
    /// the codes that had their lifetime to be used were (conversion: 50%), or fewer than this
    /// share of the texts and calls with a final status were delivered (80%); judged only once
    /// ``healthMinSample`` of them are in the hour, so a quiet night warns of nothing.
    public var warnConversionBelow = 0.5
    public var warnDeliveryBelow = 0.8
    public var healthMinSample = 20
    /// Failed codes per phone number per ``failuresPerPhoneWindow`` after which sign-in to that
    /// number is locked until the window passes: 100 per 24 hours (NIST SP 800-63B 5.2.2: at
    /// most 100). Codes are bound to whoever asked for them, so a stranger's wrong guesses do
    /// not reach another person's code; this lock is the last line.
    public var maxFailuresPerPhone = 100
    public var failuresPerPhoneWindow: TimeInterval = 86_400
    /// Failed codes from one client (an IPv4 address or an IPv6 /64) per
    /// ``failuresPerClientWindow`` after which its checks are refused until the window passes:
    /// 30 per hour.
    public var maxFailuresPerClient = 30
    public var failuresPerClientWindow: TimeInterval = 3600

    /// The numbers codes are texted to: US numbers that can receive a text, unless the
    /// `--phone-regions` option widens it (to Puerto Rico, Canada, …). A number outside it is
    /// refused before anything is stored or counted.
    public var phoneRegions = PhoneRegions.unitedStates

    /// Most sign-ins one client address may start per ``signInsPerClientWindow`` (each makes a
    /// pending session row, even while the resend cooldown sends no text): 30 per hour, so
    /// nobody fills the sessions table anonymously.
    public var maxSignInsPerClient = 30
    public var signInsPerClientWindow: TimeInterval = 3600
    /// The most passkey sign-in challenges one client address may hold unanswered (each lives 5
    /// minutes). Login asks for one as it opens, for the browser's own passkey suggestion, so
    /// this is a few reloads' worth for a household behind one address, and a bound on what a
    /// flood of requests can make the database hold.
    public var maxPasskeyChallengesPerClient = 30

    /// Wrong recovery codes (or numbers with none) per typed number per
    /// ``recoveryFailuresWindow``, after which "Lost your phone or number?" refuses that number
    /// until the window passes: 5 per hour. A set of ten codes of 50 bits each leaves a guesser
    /// at this pace about one chance in 10^10 a year; the owner, who has the paper, needs one try.
    public var maxRecoveryFailuresPerNumber = 5
    /// Wrong recovery tries from one client address per ``recoveryFailuresWindow``: 20 per
    /// hour, so one address cannot walk through many numbers.
    public var maxRecoveryFailuresPerClient = 20
    public var recoveryFailuresWindow: TimeInterval = 3600
    /// The recycled-number guard: an account whose number has not signed in with a code for this
    /// long may be someone else's now (US carriers give a disconnected number to a new subscriber
    /// after 45 to 90 days), so a text or call sign-in to it from a browser that is not one of its
    /// remembered phones asks "Is this your account?" before anything of it is shown. 90 days;
    /// 0 turns the guard off.
    public var dormantAfter: TimeInterval = 90 * 86_400
    /// How long "Is this your account?" waits for an answer.
    public var claimLifetime: TimeInterval = 1800
    /// How long a proof of recovery lasts while the person types their new number and its code.
    public var recoveryProofLifetime: TimeInterval = 1800
    /// How long events are kept ("Recent activity" shows 90 days; the operator's export has
    /// them all): 400 days, a year and a month to answer "was that me?" about last year.
    public var eventRetention: TimeInterval = 400 * 86_400

    public init() {}
}
