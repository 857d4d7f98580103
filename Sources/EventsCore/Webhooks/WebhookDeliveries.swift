/// Who reads the outbox: the `--webhooks` endpoints, and the apps told that a session ended
/// (OpenID Connect Back-Channel Logout). Each kind is served by its own sender.
public enum OutboxReader: String, Sendable, Codable, CaseIterable {
    case webhook
    case backchannelLogout = "backchannel_logout"
}

/// Where each endpoint's deliveries stand, kept in the database: the events table is the outbox,
/// and each endpoint reads it in order from its cursor. A delivery is claimed by one instance at
/// a time (a lease), a failure waits as ``RetrySchedule`` says, and an endpoint whose schedule is
/// spent is paused until an operator turns it back on.
public protocol WebhookDeliveries: Sendable {
    /// Makes sure each of `urls` has its row; a new one starts after the newest event, so an
    /// endpoint added today is not sent last year's events.
    func register(_ urls: [String], as kind: OutboxReader, now: Double) async throws

    /// Claims the endpoint of `kind` whose delivery is most overdue and not paused or leased
    /// elsewhere, until `now + lease`; nil when none is due.
    func claimDue(_ kind: OutboxReader, now: Double, lease: Double) async throws -> DeliveryCursor?

    /// Up to `limit` events after `cursor`, oldest first (empty: nothing new).
    func next(after cursor: Int64, limit: Int) async throws -> [StoredEvent]

    // Each write below is made only while `claim`'s lease is still the endpoint's, and says
    // whether it was: a sender whose lease ran out (a process stalled, a clock moved) and was
    // claimed by another must stop, and never undo what the other wrote.

    /// The endpoint's delivery of the event `id` ended (delivered, or not one it wants): its
    /// cursor moves past it and its failures are forgotten.
    func advance(_ claim: DeliveryCursor, past id: Int64, now: Double) async throws -> Bool

    /// A failed attempt: tried again at `retryAt`, or paused (nil) with `error` kept for the
    /// operator; the lease is given back.
    func failed(_ claim: DeliveryCursor, retryAt: Double?, error: String, now: Double) async throws -> Bool

    /// Gives the lease back (nothing new to send) and looks again at `next`: behind every other
    /// endpoint due before then, so a quiet endpoint never keeps a failing one waiting.
    func release(_ claim: DeliveryCursor, next: Double) async throws -> Bool

    /// Where every endpoint's deliveries stand, for the operator (`webapp webhooks`).
    func endpoints() async throws -> [EndpointStatus]

    /// Turns a paused endpoint back on: its failures forgotten, due at `now`, from where its
    /// cursor stood (nothing it missed is skipped). False when `url` is no endpoint.
    func resume(_ url: String, now: Double) async throws -> Bool
}

/// One endpoint as the operator sees it.
public struct EndpointStatus: Sendable, Equatable, Codable {
    public var url: String
    public var kind: OutboxReader
    /// The last event delivered (or passed over as unwanted).
    public var cursor: Int64
    /// Events recorded after the cursor: what is still to go out.
    public var behind: Int
    public var failures: Int
    /// When it is next tried (seconds since 1970).
    public var nextAttemptAt: Double
    /// Since when it is paused, nil while it is not.
    public var pausedAt: Double?
    public var lastError: String?

    public init(
        url: String, kind: OutboxReader, cursor: Int64, behind: Int, failures: Int, nextAttemptAt: Double,
        pausedAt: Double?, lastError: String?
    ) {
        self.url = url
        self.kind = kind
        self.cursor = cursor
        self.behind = behind
        self.failures = failures
        self.nextAttemptAt = nextAttemptAt
        self.pausedAt = pausedAt
        self.lastError = lastError
    }
}

/// A claimed endpoint: where its cursor stands, how many attempts have failed in a row, and
/// until when the claim is this sender's.
public struct DeliveryCursor: Sendable, Equatable {
    public var url: String
    public var cursor: Int64
    public var failures: Int
    /// The lease as claimed (seconds since 1970): the claim's token, which each write checks.
    public var leaseUntil: Double

    public init(url: String, cursor: Int64, failures: Int, leaseUntil: Double) {
        self.url = url
        self.cursor = cursor
        self.failures = failures
        self.leaseUntil = leaseUntil
    }
}
