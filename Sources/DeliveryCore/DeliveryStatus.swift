/// What happened to one text or call, as far as we know, in the order it can happen: a status
/// only ever moves forward (``advanced(to:)``), so a replayed or late callback changes nothing.
public enum DeliveryStatus: String, Sendable, Equatable, CaseIterable {
    /// We are asking the provider to send it (or it never told us more).
    case sending
    /// The provider accepted it and has it in its queue.
    case queued
    /// Handed to the carrier (a text), or ringing or answered and still talking (a call).
    case sent
    /// The phone got the text, or the call was answered and ended.
    case delivered
    /// The carrier could not deliver the text (no signal, filtered, a landline), or the call was
    /// not answered or was busy.
    case undelivered
    /// The provider could not send it at all (a number it refuses, a blocked account).
    case failed

    /// Where the status stands in the order: the three final ones share the last place, so the
    /// first final status reported is the one kept.
    public var stage: Int {
        switch self {
        case .sending: 0
        case .queued: 1
        case .sent: 2
        case .delivered, .undelivered, .failed: 3
        }
    }

    /// Whether no later report can change it.
    public var isFinal: Bool { stage == 3 }

    /// Whether the person will not get the code this way (and so may be offered a call, or a
    /// new code, at once).
    public var didNotArrive: Bool { self == .undelivered || self == .failed }

    /// `reported` if it is further along than this status, else `nil` (a replay, or a report
    /// that arrived after a later one: nothing to change).
    public func advanced(to reported: DeliveryStatus) -> DeliveryStatus? {
        reported.stage > stage ? reported : nil
    }
}
