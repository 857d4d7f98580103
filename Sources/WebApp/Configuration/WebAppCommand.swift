import ArgumentParser
import AuthCore
import Foundation
import HTTPLite
import Logging
import UnixSignals

/// `webapp`: serves Phone Login (started from `Entry.swift`) until SIGTERM or SIGINT.
///
/// Its options and `--help` are here; where they may also come from (`WEBAPP_*` variables) is
/// in `WebAppCommand+Environment.swift`, and how they become an ``AppConfiguration`` in
/// `WebAppCommand+AppConfiguration.swift`.
struct WebAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp",
        abstract: "Phone Login: sign in with a US phone number and a 6-digit code sent by SMS.",
        // Paragraphs end their lines with `\` so ArgumentParser wraps them to the terminal; the
        // list's lines are kept under 80 columns, so they are never wrapped mid-line.
        discussion: """
            Data (database, server secret, SMS outbox) lives under --data-dir unless given one \
            by one. The server secret can instead come from the WEBAPP_SECRET environment \
            variable (at least 64 hex digits), and gateway mode's signing key from \
            WEBAPP_ASSERTION_KEY (a P-256 private key in PEM; give every instance the same one).

            SMS delivery (--sms):
              outbox   log each text or call (without the code), append it to the
                       outbox file (the default)
              twilio   Twilio Messaging and Voice: set TWILIO_ACCOUNT_SID,
                       TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER (calls need it) or
                       TWILIO_MESSAGING_SERVICE_SID (TWILIO_API_BASE points it
                       elsewhere)
              webhook  POST {"to","channel","body",...} as JSON to --sms-webhook-url,
                       signed with X-Signature-256: sha256=HMAC-SHA256(body) under
                       WEBAPP_SMS_WEBHOOK_SECRET
              test     send nothing, every code is 123456; refused unless --host is
                       a loopback address, and with --trust-proxy or --https;
                       answers only this machine, never through a proxy

            With --public-url, Twilio and the webhook report each delivery to
            /callbacks/twilio/... or /callbacks/webhook/... (signed).

            \(Subcommand.helpParagraph)

            Every option can also come from the environment as WEBAPP_ and its name in \
            capitals with underscores: WEBAPP_HOST, WEBAPP_PORT, WEBAPP_DATA_DIR, WEBAPP_DB, \
            WEBAPP_SMS, WEBAPP_SMS_WEBHOOK_URL, WEBAPP_SMS_OUTBOX, WEBAPP_TEMPLATES, WEBAPP_LOCALES, \
            WEBAPP_PUBLIC, WEBAPP_SMS_DOMAIN, WEBAPP_APP_NAME, WEBAPP_HTTPS, WEBAPP_TRUST_PROXY, \
            WEBAPP_MAX_CODES_PER_PHONE, WEBAPP_MAX_CODES_PER_CLIENT, \
            WEBAPP_MAX_FAILURES_PER_PHONE, WEBAPP_MAX_TEXTS_PER_HOUR, WEBAPP_MAX_TEXTS_PER_DAY, \
            WEBAPP_MAX_TEXTS_PER_EXCHANGE, WEBAPP_MAX_SIGN_INS_PER_CLIENT, WEBAPP_MAX_PASSKEY_CHALLENGES_PER_CLIENT, WEBAPP_CALL_COST, \
            WEBAPP_BREAKER_MIN_CODES, WEBAPP_BREAKER_MIN_CONVERSION, WEBAPP_WARN_CONVERSION_BELOW, \
            WEBAPP_WARN_DELIVERY_BELOW, WEBAPP_CONFIRM_WITHIN, WEBAPP_DORMANT_AFTER, WEBAPP_EVENT_RETENTION_DAYS, WEBAPP_MAX_CONNECTIONS, \
            WEBAPP_MAX_CONNECTIONS_PER_CLIENT, WEBAPP_IDLE_TIMEOUT, WEBAPP_OPS_PORT, \
            WEBAPP_SHUTDOWN_DELAY, WEBAPP_SHUTDOWN_GRACE, \
            WEBAPP_PHONE_REGIONS, WEBAPP_PUBLIC_URL, WEBAPP_GATEWAY_DOMAIN, WEBAPP_GATEWAY_RULES, WEBAPP_NO_PASSKEYS, WEBAPP_OIDC_CLIENTS, WEBAPP_OIDC_REFRESH_LIFETIME, \
            WEBAPP_APPLE_APP_ID, WEBAPP_ANDROID_APP (a comma list), \
            WEBAPP_LOG_LEVEL, WEBAPP_LOG_FORMAT, WEBAPP_WEBHOOKS, WEBAPP_ADMINS (flags: true/1/yes). A flag on the command \
            line wins. DATABASE_URL is read when neither --db nor WEBAPP_DB is given; \
            PGPASSWORD supplies a password the PostgreSQL URL leaves out.
            """)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port (the bound URL is printed).")
    var port = 8080

    @Option(name: .customLong("data-dir"), help: "Folder for the database, secret and outbox.")
    var dataDirectory = "data"

    @Option(
        name: .customLong("db"),
        help: """
            SQLite database file (default: <data-dir>/webapp.sqlite), or a postgres://user@host/database URL \
            (also from DATABASE_URL) for a PostgreSQL server shared by several instances.
            """)
    var databasePath: String?

    @Option(name: .customLong("sms"), help: "How texts are delivered: outbox, twilio, webhook or test (see below).")
    var smsMode = "outbox"

    @Option(name: .customLong("sms-webhook-url"), help: "Where --sms webhook posts each text.")
    var smsWebhookURL: String?

    @Option(
        name: .customLong("sms-outbox"),
        help: "File the texts are appended to, one JSON object per line (default: <data-dir>/outbox.jsonl).")
    var outboxPath: String?

    @Option(name: .customLong("templates"), help: "Folder with the page templates.")
    var templatesDirectory = "Templates"

    @Option(
        name: .customLong("locales"),
        help: "Folder with the words of every language: en.json and es.json.")
    var localesDirectory = "Locales"

    @Option(name: .customLong("public"), help: "Folder with the static files served under /public/.")
    var publicDirectory = "Public"

    @Option(
        name: .customLong("sms-domain"), help: "Host name of the site, for origin-bound codes in texts (@HOST #123456)."
    )
    var smsDomain = "localhost"

    @Option(name: .customLong("app-name"), help: "Name in the text (\"123456 is your NAME verification code.\").")
    var appName: String?

    @Flag(help: "The site is reached over HTTPS (directly or via a proxy): Secure __Host- cookies and HSTS.")
    var https = false

    @Flag(
        name: .customLong("trust-proxy"),
        help: "Take the client address from X-Forwarded-For (only behind a reverse proxy that sets it).")
    var trustProxy = false

    @OptionGroup(title: "Connections")
    var connections: ConnectionOptions

    @OptionGroup(title: "Sign-in limits")
    var limits: LimitOptions

    @OptionGroup(title: "Gateway mode (docs/GATEWAY.md)")
    var gateway: GatewayOptions

    @OptionGroup(title: "Passkeys")
    var passkeys: PasskeyOptions

    @OptionGroup(title: "OpenID Connect provider")
    var oidc: OIDCOptions

    @Option(
        name: .customLong("phone-regions"),
        help: """
            Regions whose numbers are texted codes, a comma list of ISO codes of country code 1 such as \
            US,PR,VI,GU,AS,MP,CA (toll-free, premium-rate and similar numbers never are).
            """)
    var phoneRegions = PhoneRegions.unitedStates.description

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    @Option(
        name: .customLong("webhooks"),
        help: """
            A JSON file of endpoints that get the events, signed as Standard Webhooks does:             {"endpoints": [{"url", "secret": "whsec_…", "events"?: [types], "include_phone_number"?}]}.
            """)
    var webhooksPath: String?

    @Option(name: .customLong("log-format"), help: "text (the default) or json: each log line a JSON object (JSON Lines).")
    var logFormat = "text"

    @Option(
        name: .customLong("admins"),
        help: """
            Operators' phone numbers, a comma list: each may open the console at /admin once signed in             with a passkey (needs passkeys). To everyone else /admin is an unknown page.
            """)
    var admins: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format must be text or json.") }
        _ = try webhooks()
        _ = try textedRegions()
        _ = try smsDelivery(environment: ProcessInfo.processInfo.environment)
        _ = try database(environment: ProcessInfo.processInfo.environment)
        _ = try gateway.gateway(https: https)
        _ = try passkeys.configuration(publicURL: gateway.publicAddress(https: https))
        _ = try oidc.registry(publicURL: gateway.publicAddress(https: https))
        _ = try GatewayOptions.assertionKeys(environment: ProcessInfo.processInfo.environment)
        _ = try GatewayOptions.oidcRSAKey(environment: ProcessInfo.processInfo.environment)
        if smsMode == "test", !Application.isLoopback(host) {
            throw ValidationError("--sms test (every code is 123456) only runs on a loopback --host such as 127.0.0.1.")
        }
        if smsMode == "test", trustProxy || https {
            throw ValidationError(Application.testModeBehindProxy)
        }
    }

    func run() async throws {
        // Before anything creates a file: the database, its -wal and -shm, the secret and the
        // outbox (which holds codes) are readable by this user only (0600, folders 0700),
        // whatever umask the shell or service manager started us with.
        umask(0o077)
        let level = logLevel
        let json = logFormat == "json"
        // Every line written while handling a request carries its id (request=…), the domain's
        // lines included.
        LoggingSystem.bootstrap(
            { label, provider in
                if json {
                    var handler = JSONLogHandler(label: label, metadataProvider: provider)
                    handler.logLevel = level
                    return handler
                }
                var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestID.metadataProvider)
        let logger = Logger(label: "webapp")

        var configuration = try appConfiguration(environment: ProcessInfo.processInfo.environment)
        if gateway.rotateAssertionKey {
            try Application.rotateAssertionKey(configuration)
            return
        }
        // Every connection is a file descriptor: the soft limit (often 1,024) would refuse
        // connections long before --max-connections does.
        if let files = FileDescriptorLimit.raiseToHard() {
            let fitting = FileDescriptorLimit.connectionsFitting(files)
            if fitting < configuration.server.maxConnections {
                logger.warning(
                    "The open-file limit allows only \(fitting) connections; --max-connections lowered to fit",
                    metadata: ["limit": "\(files)"])
                configuration.server.maxConnections = fitting
            }
        }
        let app = try await Application.make(
            configuration: configuration, logger: logger, gracefulShutdownSignals: [.sigterm, .sigint])
        async let running: Void = app.run()
        if let address = await app.listeningAddress() {
            let shownHost = address.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? host
            // Written unbuffered: scripts and tests wait for this line to know the port.
            FileHandle.standardOutput.write(Data("Listening on http://\(shownHost):\(address.port ?? port)\n".utf8))
        }
        if let address = await app.opsListeningAddress() {
            let shownHost = address.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? host
            FileHandle.standardOutput.write(
                Data("Health, readiness and metrics on http://\(shownHost):\(address.port ?? 0)\n".utf8))
        }
        try await running
        logger.info("Stopped")
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
