import Foundation

/// One event as a Standard Webhooks message for one endpoint: its id (the same on every retry),
/// the body `{"type", "timestamp", "data"}`, and the headers that sign it.
public struct WebhookMessage: Sendable, Equatable {
    public var id: String
    public var body: Data

    /// The event's time to the millisecond, a value made once (an `ISO8601DateFormatter` made
    /// per message builds its ICU formatter anew, about 190 µs).
    private static let instant = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public init(_ stored: StoredEvent, for endpoint: WebhookEndpoint) {
        id = "msg_\(stored.id)"
        let event = stored.event
        struct Body: Encodable {
            struct Payload: Encodable {
                let event_id: Int64
                let user_id: Int64?
                let detail: String?
                let app: String?
                let delivery_status: String?
                let user_agent: String?
                let network: String?
                let phone_number: String?
            }
            let type: String
            let timestamp: String
            let data: Payload
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        body =
            (try? encoder.encode(
                Body(
                    type: event.type.rawValue, timestamp: Date(timeIntervalSince1970: event.at).formatted(Self.instant),
                    data: .init(
                        event_id: stored.id, user_id: event.user, detail: event.detail, app: event.app,
                        delivery_status: stored.status, user_agent: event.userAgent, network: event.network,
                        phone_number: endpoint.includesPhoneNumber ? event.phone : nil)))) ?? Data("{}".utf8)
    }

    /// The headers of this message sent at `timestamp` (whole seconds since 1970).
    public func headers(signedWith secret: WebhookSecret, at timestamp: Int) -> [(String, String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", secret.signature(id: id, timestamp: timestamp, body: body)),
            ("content-type", "application/json"),
        ]
    }
}
