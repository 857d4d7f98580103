import DeliveryCore
import Foundation

/// A request to store a new code for a phone and attach a session to it.
public struct CodeIssue: Sendable {
    public var phone: PhoneNumber
    public var codeDigest: Data
    /// The session that asked, if the browser already had one.
    public var existingSession: Data?
    /// Storage key to use if a new session must be created; `nil` with no `existingSession`
    /// makes no session pending (the JSON API, whose clients check the code with the number).
    public var newSession: Data?
    /// When the cooldown is running: still attach the session to the phone (a login form
    /// re-submitted for the same number) rather than refusing (an explicit resend).
    public var attachSessionDuringCooldown: Bool
    /// The client address that asked (for the per-client limit); `nil` if unknown.
    public var client: String?
    /// The browser's or app's `User-Agent`, for the send's event.
    public var userAgent: String?
    /// Who may try the code when no session is made pending (the JSON API): the digest of the
    /// `verification_id` handed to the caller. With a session, the session is the holder.
    public var holder: Data?
    /// A text or a call.
    public var channel: DeliveryChannel
    /// The name the send is recorded under (its status callback address ends with it).
    public var reference: SendReference
    public var now: Date

    public init(
        phone: PhoneNumber, codeDigest: Data, existingSession: Data?, newSession: Data?,
        attachSessionDuringCooldown: Bool, client: String? = nil, userAgent: String? = nil, holder: Data? = nil,
        channel: DeliveryChannel = .sms, reference: SendReference = .generate(), now: Date
    ) {
        self.userAgent = userAgent
        self.channel = channel
        self.reference = reference
        self.client = client
        self.holder = holder
        self.phone = phone
        self.codeDigest = codeDigest
        self.existingSession = existingSession
        self.newSession = newSession
        self.attachSessionDuringCooldown = attachSessionDuringCooldown
        self.now = now
    }
}

/// A sending limit that refused a new code.
public enum SendLimit: Sendable, Equatable {
    /// Too many codes went to this phone number in the window.
    case phone
    /// Too many codes were asked for from this client address in the window.
    case client
    /// Too many texts went to numbers of this exchange in the window.
    case exchange
    /// The pumping breaker: the exchange's recent codes were hardly ever used.
    case exchangePaused
    /// Too many calls went to this phone number in the window.
    case phoneCalls
    /// The spend budget (texts per hour or per day, for everyone) is used up.
    case budget
    /// Sign-in to this number is locked (too many failed codes in the window): a code sent now
    /// could never be accepted, so none is sent.
    case locked
    /// Too many sign-ins (new pending sessions) were started from this client address.
    case clientSignIns
    /// The provider failed too often in a row on this channel: sending pauses for a while
    /// (``SignInPolicy/providerFailuresToPause``).
    case providerPaused
}

/// How much of the spend budget is used (in texts; a call counts ``SignInPolicy/callCost``)
/// once a send is counted: for the metrics and the warnings at 80% and 100%.
public struct BudgetUse: Sendable, Equatable {
    public var textsInHour: Int
    public var textsInDay: Int
    /// What the send just counted cost.
    public var cost: Int

    public init(textsInHour: Int, textsInDay: Int, cost: Int = 1) {
        self.textsInHour = textsInHour
        self.textsInDay = textsInDay
        self.cost = cost
    }
}

/// What asking for a code came to.
public struct IssueOutcome: Sendable, Equatable {
    /// `nil`: the new code digest is stored (replacing any older one). Otherwise a code went to
    /// this phone less than the cooldown ago, nothing new was stored, and this is when the
    /// cooldown ends.
    public var cooldownUntil: Date?
    /// When the code now valid for the phone expires.
    public var codeExpiresAt: Date
    /// Whether the session made pending is `existingSession` (true) or `newSession` (false).
    public var keptExistingSession: Bool
    /// Set when a sending limit refused the code: which one, and when it allows another.
    /// Nothing was stored then.
    public var limited: SendLimitReached?
    /// Set when a text is to go out: the budget used, this text included.
    public var budget: BudgetUse?
    /// How the code now valid went out: the asked channel for a new code, the earlier code's
    /// during the cooldown (a call asked for in a text's cooldown is no call).
    public var channel: DeliveryChannel
    /// The provider has failed on this channel lately: once this send goes out, its failures
    /// are forgotten (``AuthChange/providerRecovered(channel:)``).
    public var providerFailing = false

    public init(
        cooldownUntil: Date?, codeExpiresAt: Date, keptExistingSession: Bool, limited: SendLimitReached? = nil,
        budget: BudgetUse? = nil, channel: DeliveryChannel = .sms
    ) {
        self.channel = channel
        self.cooldownUntil = cooldownUntil
        self.codeExpiresAt = codeExpiresAt
        self.keptExistingSession = keptExistingSession
        self.limited = limited
        self.budget = budget
    }
}

/// Which sending limit refused a code, and when it allows another.
public struct SendLimitReached: Sendable, Equatable {
    public var limit: SendLimit
    public var until: Date

    public init(_ limit: SendLimit, until: Date) {
        self.limit = limit
        self.until = until
    }
}
