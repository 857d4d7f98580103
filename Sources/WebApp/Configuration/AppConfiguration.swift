import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import GatewayCore
import JWTKit
import HTTPLite
import OIDCCore
import PostgresStorage
import SMSProviders

/// How sign-in texts are delivered.
enum SMSDelivery: Sendable {
    /// Logged (without the code) and appended to the outbox file: the default, for trying it out.
    case outbox
    /// Twilio's Programmable Messaging API.
    case twilio(TwilioSender.Configuration)
    /// A signed JSON POST to any gateway.
    case webhook(WebhookSender.Configuration)
    /// Nothing is sent and every code is 123456; only on a loopback address, without a proxy.
    case test

    /// Whether this is ``test``: the pages say so, and only this machine is answered.
    var isTestMode: Bool {
        if case .test = self { true } else { false }
    }

    /// The delivery with its provider asked to report each send's status at this app's
    /// callback addresses under `publicURL` (``DeliveryCallbackController``); as it is without
    /// one, and for the outbox and test mode, which report nothing.
    func reporting(to publicURL: String?) -> SMSDelivery {
        guard let publicURL else { return self }
        switch self {
        case .twilio(var twilio):
            twilio.statusCallbackBase = publicURL + DeliveryCallbackController.twilioPath + "/"
            return .twilio(twilio)
        case .webhook(var webhook):
            webhook.statusCallbackBase = publicURL + DeliveryCallbackController.webhookPath + "/"
            return .webhook(webhook)
        case .outbox, .test:
            return self
        }
    }
}

/// Everything the app is assembled from; the `webapp` command fills it from its options and
/// tests fill it directly.
struct AppConfiguration: Sendable {
    /// Address, port and per-connection limits.
    var server = ServerConfiguration()
    /// When set, `/healthz`, `/readyz` and `/metrics` are served on this port (on the same host)
    /// and no longer on the main one, so a firewall or a proxy can keep them inside.
    var opsPort: Int?
    /// Between SIGTERM and closing the listener: /readyz says 503, everything else is served.
    var shutdownDelay: Duration = .zero
    /// Folder for the database, the secret and the outbox when their paths are not given.
    var dataDirectory = "data"
    /// SQLite database file; defaults to `<data>/webapp.sqlite`. Unused with `postgres`.
    var databasePath: String?
    /// A PostgreSQL server to keep everything in instead of SQLite (several instances share it).
    var postgres: PostgresBackend.Configuration?
    /// How texts are delivered.
    var sms = SMSDelivery.outbox
    /// SMS outbox file; defaults to `<data>/outbox.jsonl`.
    var outboxPath: String?
    /// The server secret; when `nil` it is read from `<data>/secret` (created on first start).
    var secret: ServerSecret?
    /// Where `*.mustache` page templates are.
    var templatesDirectory = "Templates"
    /// The catalogs of every language's words.
    var localesDirectory = "Locales"
    /// Where the static files served under `/public/` are.
    var publicDirectory = "Public"
    /// Name in the text message ("123456 is your NAME verification code."); none by default.
    var appName: String?
    /// The site's host name for origin-bound codes (`@HOST #123456`).
    var smsDomain = "localhost"
    /// The app is reached over HTTPS (directly or behind a proxy): Secure, `__Host-` cookies and HSTS.
    var https = false
    /// Code, cooldown, attempt and session lifetimes.
    var policy = SignInPolicy()
    /// How long a SQLite write waits for another writer before the request gets 503 (tests
    /// shorten it).
    var sqliteBusyTimeout: TimeInterval = 5
    /// Called on the thread of every SQLite statement (tests check it is never an event loop).
    var onDatabaseStatement: (@Sendable (String) -> Void)?
    /// Gateway mode (`--gateway-domain`): Phone Login in front of other apps on that domain;
    /// `nil` when off.
    var gateway: Gateway?
    /// This app's own address (`--public-url`, no trailing slash): gateway mode's issuer, and
    /// the base of the addresses Twilio or the webhook report each text's and call's status to.
    var publicURL: String?
    /// The OpenID Connect provider's clients (`--oidc-clients`); `nil` when the provider is off.
    var oidcClients: ClientRegistry?
    /// How long an app's family of refresh tokens lasts (`--oidc-refresh-lifetime`).
    var oidcRefreshFamilyLifetime: TimeInterval = RefreshGrant.familyLifetime
    /// Passkeys (on with `--public-url`, unless `--no-passkeys`); `nil` when off.
    var passkeys: PasskeyConfiguration?
    /// Gateway mode's signing keys when given (`WEBAPP_ASSERTION_KEY`); else the data folder's.
    var assertionKeys: AssertionKeys?
    /// The OpenID Connect provider's RS256 key from `WEBAPP_OIDC_RSA_KEY`; `nil`: the data folder's.
    var oidcRSAKey: JWTKit.Insecure.RSA.PrivateKey?
    /// How often expired sessions and codes are deleted.
    var purgeInterval: Duration = .seconds(600)
    /// The operators `--admins` lists: who may open the console at `/admin`.
    var operators = Operators([])

    /// The OpenID Connect provider's clients file, when the provider is on: with
    /// `--oidc-clients`, or with operators (who add apps in the console) and no file.
    var providerClients: ClientRegistry? {
        oidcClients ?? (operators.isEmpty ? nil : ClientRegistry([]))
    }
    /// The endpoints of `--webhooks`, and how often the webhook sender looks for what is due.
    var webhooks: [WebhookEndpoint] = []
    var webhookInterval: Duration = .seconds(1)
    /// How often the last hour's conversion and delivery rates are checked (and warned of).
    var healthInterval: Duration = .seconds(300)

    var resolvedDatabasePath: String {
        databasePath ?? (dataDirectory as NSString).appendingPathComponent("webapp.sqlite")
    }
    var resolvedOutboxPath: String { outboxPath ?? (dataDirectory as NSString).appendingPathComponent("outbox.jsonl") }
    /// The API's OpenAPI document, served at `/api/v1/openapi.json`.
    var openAPIDocumentPath: String { (publicDirectory as NSString).appendingPathComponent("openapi.json") }
    var secretPath: String { (dataDirectory as NSString).appendingPathComponent("secret") }
}
