import EventsCore
import Foundation
import OIDCCore

/// One reader of the outbox: what it is told of an event, as an HTTP request.
protocol OutboxRecipient: Sendable {
    /// Its row in `webhook_endpoints` (what `webapp webhooks` lists and `resume` takes).
    var key: String { get }

    /// The request telling it of `stored`, for an attempt at `timestamp` (seconds since 1970);
    /// nil when it is not told of this event.
    func request(for stored: StoredEvent, at timestamp: Int) async throws -> OutboxRequest?
}

/// A `POST` to make.
struct OutboxRequest: Sendable {
    var url: URL
    var headers: [(String, String)]
    var body: Data
}

/// A `--webhooks` endpoint: the events it asks for, as Standard Webhooks messages.
struct WebhookRecipient: OutboxRecipient {
    let endpoint: WebhookEndpoint

    var key: String { endpoint.url.absoluteString }

    func request(for stored: StoredEvent, at timestamp: Int) async throws -> OutboxRequest? {
        guard endpoint.wants(stored.event) else { return nil }
        let message = WebhookMessage(stored, for: endpoint)
        return OutboxRequest(
            url: endpoint.url, headers: message.headers(signedWith: endpoint.secret, at: timestamp), body: message.body)
    }
}

/// An OpenID Connect client with a `backchannel_logout_uri`: a logout token when a session it
/// signed in from ends, the account is deleted, or the person disconnects it (OpenID Connect
/// Back-Channel Logout 1.0 §2.5: a form-encoded `logout_token`).
struct BackChannelLogoutRecipient: OutboxRecipient {
    let client: OIDCClient
    let url: URL
    let provider: OIDCProvider

    init?(_ client: OIDCClient, provider: OIDCProvider) {
        guard let uri = client.backchannelLogoutURI, let url = URL(string: uri) else { return nil }
        self.client = client
        self.url = url
        self.provider = provider
    }

    var key: String { "oidc:" + client.id }

    func request(for stored: StoredEvent, at timestamp: Int) async throws -> OutboxRequest? {
        guard let token = try await provider.logoutToken(for: stored.event, to: client) else { return nil }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "logout_token", value: token)]
        return OutboxRequest(
            url: url,
            headers: [("content-type", "application/x-www-form-urlencoded"), ("cache-control", "no-store")],
            body: Data((form.percentEncodedQuery ?? "").utf8))
    }
}
