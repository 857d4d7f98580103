/// Where recorded events are read back. They are written by the stores of the changes they
/// describe (in the same transaction); this reads them for "Recent activity" and the operator's
/// export, and decides nothing.
public protocol EventStore: Sendable {
    /// The user's events at or after `since`, newest first, older than the event `before` (nil:
    /// from the newest), at most `limit`.
    func activity(user: Int64, since: Double, before: Int64?, limit: Int) async throws -> [StoredEvent]

    /// Events matching `filter`, oldest first, after the event `after` (0: from the first), at
    /// most `limit`: the operator's export reads them page by page.
    func export(_ filter: EventFilter, after: Int64, limit: Int) async throws -> [StoredEvent]
}

/// An event as read back: its row id (the pages' cursor) and, for a code, its delivery status
/// when the provider reported one.
public struct StoredEvent: Sendable, Equatable {
    public var id: Int64
    public var event: Event
    /// `delivered`, `undelivered`, `failed`… as the provider last said; nil when it has not.
    public var status: String?

    public init(id: Int64, event: Event, status: String?) {
        self.id = id
        self.event = event
        self.status = status
    }
}

/// Which events the operator's export wants: all of them by default.
public struct EventFilter: Sendable, Equatable {
    public var since: Double?
    public var until: Double?
    /// E.164.
    public var phone: String?
    public var type: EventType?

    public init(since: Double? = nil, until: Double? = nil, phone: String? = nil, type: EventType? = nil) {
        self.since = since
        self.until = until
        self.phone = phone
        self.type = type
    }
}
