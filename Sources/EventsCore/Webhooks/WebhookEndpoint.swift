import Foundation

/// Where an app wants events sent (`--webhooks FILE`):
///
/// ```json
/// {"endpoints": [{"url": "https://hooks.example.com/phone-login", "secret": "whsec_…",
///                 "events": ["session.created", "session.ended"], "include_phone_number": false}]}
/// ```
///
/// `events` left out means every type. A phone number is sent only to an endpoint that asks.
public struct WebhookEndpoint: Sendable, Equatable {
    public var url: URL
    public var secret: WebhookSecret
    /// nil: every type.
    public var types: Set<EventType>?
    public var includesPhoneNumber: Bool

    /// Whether `event` goes to this endpoint.
    public func wants(_ event: Event) -> Bool { types?.contains(event.type) ?? true }

    /// What is wrong with a webhooks file, said for the person who wrote it.
    public struct Refused: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The endpoints of a webhooks file. `https` only, but `http` to a loopback address (an app
    /// on the same machine); no user or password in the address; at most 20 endpoints, each
    /// address once.
    public static func parse(_ data: Data) throws(Refused) -> [WebhookEndpoint] {
        struct File: Decodable {
            struct Endpoint: Decodable {
                let url: String
                let secret: String
                let events: [String]?
                let include_phone_number: Bool?
            }
            let endpoints: [Endpoint]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw Refused(description: #"not {"endpoints": [{"url", "secret", "events"?, "include_phone_number"?}]}"#)
        }
        // A misspelt key would be ignored without a word ("include_phone_numbers": true): refused.
        let known: Set<String> = ["url", "secret", "events", "include_phone_number"]
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let entries = object["endpoints"] as? [[String: Any]]
        {
            guard Set(object.keys) == ["endpoints"] else {
                throw Refused(description: "the file has one key, \"endpoints\"")
            }
            for (entry, endpoint) in zip(entries, file.endpoints) {
                if let unknown = entry.keys.sorted().first(where: { !known.contains($0) }) {
                    throw Refused(description: "\(endpoint.url): \(unknown) is no setting (url, secret, events, include_phone_number)")
                }
            }
        }
        guard file.endpoints.count <= 20 else { throw Refused(description: "at most 20 endpoints") }
        var seen = Set<String>()
        return try file.endpoints.map { (endpoint: File.Endpoint) throws(Refused) -> WebhookEndpoint in
            let scheme = URL(string: endpoint.url)?.scheme?.lowercased()
            guard let url = URL(string: endpoint.url), let host = url.host?.lowercased(), !host.isEmpty, url.user == nil,
                url.password == nil,
                scheme == "https" || (scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host))
            else {
                throw Refused(description: "\(endpoint.url): an https address (http only to this machine), with no user or password")
            }
            guard url.fragment == nil else { throw Refused(description: "\(endpoint.url): an address without a #fragment") }
            guard seen.insert(url.absoluteString).inserted else { throw Refused(description: "\(endpoint.url) is given twice") }
            guard let secret = WebhookSecret(endpoint.secret) else {
                throw Refused(description: "\(endpoint.url): the secret is whsec_ and 24 to 64 bytes in base64")
            }
            var types: Set<EventType>?
            if let names = endpoint.events {
                guard !names.isEmpty else {
                    throw Refused(description: "\(endpoint.url): events lists none (leave it out for every event)")
                }
                types = []
                for name in names {
                    guard let type = EventType(rawValue: name) else {
                        throw Refused(description: "\(endpoint.url): \(name) is no event type")
                    }
                    types?.insert(type)
                }
            }
            return WebhookEndpoint(
                url: url, secret: secret, types: types, includesPhoneNumber: endpoint.include_phone_number ?? false)
        }
    }
}
