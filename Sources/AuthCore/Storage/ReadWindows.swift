import Foundation

/// What a sliding-window limit counts.
public enum EventKind: String, Sendable, Equatable, CaseIterable {
    /// Codes sent (texts and calls) to a phone number.
    case phoneSends
    /// Calls to a phone number.
    case phoneCalls
    /// Codes asked for from a client address.
    case clientSends
    /// Codes sent to the numbers of an exchange (the subject is its prefix, `+1530555`).
    case exchangeSends
    /// Wrong codes for a phone number.
    case phoneFailures
    /// Wrong codes from a client address.
    case clientFailures
    /// Sign-ins (new pending sessions, answers to passkey challenges) a client address started.
    case clientSignIns
    /// Passkey sign-in challenges a client address asked for (each is a row until answered or
    /// purged).
    case clientPasskeyChallenges
    /// Wrong recovery tries ("Lost your phone or number?") for a typed number.
    case phoneRecoveryFailures
    /// Wrong recovery tries from a client address.
    case clientRecoveryFailures
}

/// "When did the event at `position` (0 = the newest) among `subject`'s events after `since`
/// happen?": one indexed row, however many events there are. A sliding-window limit of N is
/// full when position N-1 exists.
public struct RecentEvents: Sendable, Equatable {
    public var kind: EventKind
    /// The phone number, client address or exchange prefix (`+1530555`, matched against the
    /// start of each phone number) the events belong to.
    public var subject: String
    /// Seconds since 1970; only events strictly after it count.
    public var since: Double
    public var position: Int
    /// Events after it (written before the clock was set back: ``SignInRules/hasHappened(_:by:)``)
    /// do not count either.
    public var until: Double

    public init(kind: EventKind, subject: String, since: Double, position: Int, until: Double = .infinity) {
        self.kind = kind
        self.subject = subject
        self.since = since
        self.position = position
        self.until = until
    }
}

/// A sliding-window limit as read: full until a time, or not.
public struct LimitWindow: Sendable, Equatable {
    /// The time of the event at the limit (the max-th newest) in the window; `nil` while there
    /// is room.
    public var nthNewest: Double?
    /// The window's length.
    public var length: TimeInterval

    public init(nthNewest: Double?, length: TimeInterval) {
        self.nthNewest = nthNewest
        self.length = length
    }

    /// When the full window allows another event (its max-th newest leaves it); `nil` while
    /// there is room.
    public var fullUntil: Date? { nthNewest.map { Date(timeIntervalSince1970: $0 + length) } }

    /// A limit that does not apply to the request (no client address known, a text rather than
    /// a call), known without reading.
    public static let notCounted = LimitWindow(nthNewest: nil, length: 0)
}

/// One of the spend budget's windows as read.
public struct BudgetWindow: Sendable, Equatable {
    public var count: SendCount
    public var length: TimeInterval

    public init(count: SendCount, length: TimeInterval) {
        self.count = count
        self.length = length
    }

    /// When the full window lets the new send fit; `nil` while it does.
    public var fullUntil: Date? { count.reachedAt.map { Date(timeIntervalSince1970: $0 + length) } }
}

/// "What did the texts and calls to anyone after `since` cost, in texts (a call costs
/// ``SignInPolicy/callCost``), and counting from the newest, at which send did the cost reach
/// `reaching`?": the spend budget's window, through the time index. `reaching` is the budget
/// less what the new send costs, plus one: once that send leaves the window, the new one fits.
/// A store may stop adding at `reaching`; the rules need no more, since a send goes out (and its
/// cost is used) only while the window holds less.
public struct AllSends: Sendable, Equatable {
    public var since: Double
    public var reaching: Int
    /// Sends after it (before the clock was set back) do not count.
    public var until: Double

    public init(since: Double, reaching: Int, until: Double = .infinity) {
        self.since = since
        self.reaching = reaching
        self.until = until
    }
}

/// What a store found for an ``AllSends``.
public struct SendCount: Sendable, Equatable {
    /// What the sends in the window cost, added up at least to `reaching`: exact whenever the
    /// window holds less.
    public var count: Int
    /// The time of the send at which the cost, counted from the newest, reached `reaching`; `nil`
    /// while the window holds less.
    public var reachedAt: Double?

    public init(count: Int, reachedAt: Double?) {
        self.count = count
        self.reachedAt = reachedAt
    }
}

/// "Of the codes sent to numbers starting with `prefix` after `since` and up to `settledBy` (so
/// each had its lifetime to be used), how many were, and when was the one at `position` (0 = the
/// newest) sent?": the pumping breaker's window, for an exchange (`+1530555`) or, with the
/// prefix `+1`, for every number (the operators' conversion rate).
public struct SettledCodes: Sendable, Equatable {
    public var prefix: String
    public var since: Double
    public var settledBy: Double
    public var position: Int

    public init(prefix: String, since: Double, settledBy: Double, position: Int) {
        self.prefix = prefix
        self.since = since
        self.settledBy = settledBy
        self.position = position
    }
}

/// What a store found for a ``SettledCodes``.
public struct Conversion: Sendable, Equatable {
    /// Codes sent in the window.
    public var sent: Int
    /// Of them, codes that signed someone in.
    public var verified: Int
    /// The time of the send at the asked position, if there were that many.
    public var atPosition: Double?

    public init(sent: Int, verified: Int, atPosition: Double? = nil) {
        self.sent = sent
        self.verified = verified
        self.atPosition = atPosition
    }
}

/// The sends in a window whose provider gave a final status, delivered or not; and of those
/// sent before the window's settling time, how many there are and how many still have none.
public struct Deliveries: Sendable, Equatable {
    public var delivered: Int
    public var notDelivered: Int
    /// Sends old enough that their provider should have reported a final status.
    public var settled: Int
    /// Of those, the ones with no final status (queued or sent, as the provider first answered).
    public var unreported: Int

    public init(delivered: Int, notDelivered: Int, settled: Int = 0, unreported: Int = 0) {
        self.delivered = delivered
        self.notDelivered = notDelivered
        self.settled = settled
        self.unreported = unreported
    }
}
