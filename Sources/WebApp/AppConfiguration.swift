import AuthCore
import Foundation
import HTTPLite

/// Everything the app is assembled from; the `webapp` command fills it from its options and
/// tests fill it directly.
struct AppConfiguration: Sendable {
    /// Address, port and per-connection limits.
    var server = ServerConfiguration()
    /// Folder for the database, the secret and the outbox when their paths are not given.
    var dataDirectory = "data"
    /// SQLite database file; defaults to `<data>/webapp.sqlite`.
    var databasePath: String?
    /// SMS outbox file; defaults to `<data>/outbox.jsonl`.
    var outboxPath: String?
    /// The server secret; when `nil` it is read from `<data>/secret` (created on first start).
    var secret: ServerSecret?
    /// Where `*.mustache` page templates are.
    var templatesDirectory = "Templates"
    /// Where the static files served under `/public/` are.
    var publicDirectory = "Public"
    /// Name in the text message ("123456 is your NAME verification code."); none by default.
    var appName: String?
    /// The site's host name for origin-bound codes (`@HOST #123456`).
    var smsDomain = "localhost"
    /// The app is reached over HTTPS (directly or behind a proxy): Secure, `__Host-` cookies and HSTS.
    var https = false
    /// Take the client address from `X-Forwarded-For` (only behind a reverse proxy that sets it).
    var trustProxy = false
    /// Code, cooldown, attempt and session lifetimes.
    var policy = SignInPolicy()
    /// How often expired sessions and codes are deleted.
    var purgeInterval: Duration = .seconds(600)

    var resolvedDatabasePath: String { databasePath ?? (dataDirectory as NSString).appendingPathComponent("webapp.sqlite") }
    var resolvedOutboxPath: String { outboxPath ?? (dataDirectory as NSString).appendingPathComponent("outbox.jsonl") }
    /// The API's OpenAPI document, served at `/api/v1/openapi.json`.
    var openAPIDocumentPath: String { (publicDirectory as NSString).appendingPathComponent("openapi.json") }
    var secretPath: String { (dataDirectory as NSString).appendingPathComponent("secret") }
}
