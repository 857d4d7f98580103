import ArgumentParser
import AuthCore
import Foundation
import HTTPLite
import Logging
import NIOCore
import NIOPosix
import PostgresStorage
import SMSGateways

/// `webapp`: serves Phone Login (started from `main.swift`).
struct WebAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webapp",
        abstract: "Phone Login: sign in with a US phone number and a 6-digit code sent by SMS.",
        discussion: """
            Data (database, server secret, SMS outbox) lives under --data-dir unless given one by one.
            The server secret can instead come from the WEBAPP_SECRET environment variable
            (at least 64 hex digits).

            SMS delivery (--sms):
              outbox   log each text (without the code) and append it to the outbox file (default)
              twilio   Twilio Programmable Messaging; set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
                       TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID (TWILIO_API_BASE to point
                       it elsewhere)
              webhook  POST {"to","body"} as JSON to --sms-webhook-url, signed with
                       X-Signature-256: sha256=HMAC-SHA256(body) under WEBAPP_SMS_WEBHOOK_SECRET
              test     send nothing, every code is 123456; refused unless --host is a loopback address

            Every option can also come from the environment as WEBAPP_ and its name in capitals
            with underscores: WEBAPP_HOST, WEBAPP_PORT, WEBAPP_DATA_DIR, WEBAPP_DB, WEBAPP_SMS,
            WEBAPP_SMS_WEBHOOK_URL, WEBAPP_SMS_OUTBOX, WEBAPP_TEMPLATES, WEBAPP_PUBLIC,
            WEBAPP_SMS_DOMAIN, WEBAPP_APP_NAME, WEBAPP_HTTPS, WEBAPP_TRUST_PROXY,
            WEBAPP_MAX_CODES_PER_PHONE, WEBAPP_MAX_CODES_PER_CLIENT, WEBAPP_MAX_FAILURES_PER_PHONE,
            WEBAPP_LOG_LEVEL (flags: true/1/yes). A flag on the command line wins. DATABASE_URL is
            read when neither --db nor WEBAPP_DB is given; PGPASSWORD supplies a password the
            PostgreSQL URL leaves out.
            """)

    /// The options that may come from `WEBAPP_*` variables, and the flags among them.
    static let environmentOptions = [
        "host", "port", "data-dir", "db", "sms", "sms-webhook-url", "sms-outbox", "templates", "public", "sms-domain",
        "app-name", "max-codes-per-phone", "max-codes-per-client", "max-failures-per-phone", "log-level",
    ]
    static let environmentFlags = ["https", "trust-proxy"]

    /// The command line with `WEBAPP_*` settings added for options it does not give itself.
    static func arguments(_ given: [String], environment: [String: String]) -> [String] {
        func variable(_ option: String) -> String {
            "WEBAPP_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
        }
        func isGiven(_ option: String) -> Bool {
            given.contains { $0 == "--\(option)" || $0.hasPrefix("--\(option)=") }
        }
        var extra: [String] = []
        for option in environmentOptions where !isGiven(option) {
            if let value = environment[variable(option)] { extra += ["--\(option)", value] }
        }
        for flag in environmentFlags where !isGiven(flag) {
            if let value = environment[variable(flag)], ["1", "true", "yes"].contains(value.lowercased()) {
                extra.append("--\(flag)")
            }
        }
        return extra + given
    }

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

    @Option(name: .customLong("max-codes-per-phone"), help: "Most codes texted to one number per 10 minutes.")
    var maxCodesPerPhone = SignInPolicy().maxCodesPerPhone

    @Option(name: .customLong("max-codes-per-client"), help: "Most codes asked for from one client address per hour.")
    var maxCodesPerClient = SignInPolicy().maxCodesPerClient

    @Option(
        name: .customLong("max-failures-per-phone"),
        help: "Failed codes per number in 24 hours before sign-in to it is locked.")
    var maxFailuresPerPhone = SignInPolicy().maxFailuresPerPhone

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        for (name, value) in [
            ("--max-codes-per-phone", maxCodesPerPhone), ("--max-codes-per-client", maxCodesPerClient),
            ("--max-failures-per-phone", maxFailuresPerPhone),
        ] where value < 1 {
            throw ValidationError("\(name) must be at least 1.")
        }
        _ = try smsDelivery(environment: ProcessInfo.processInfo.environment)
        _ = try database(environment: ProcessInfo.processInfo.environment)
        if smsMode == "test", !Application.isLoopback(host) {
            throw ValidationError("--sms test (every code is 123456) only runs on a loopback --host such as 127.0.0.1.")
        }
    }

    /// The delivery `--sms` names, with its settings from the environment (secrets never come
    /// from flags, which other users can see in the process list).
    func smsDelivery(environment: [String: String]) throws -> SMSDelivery {
        do {
            switch smsMode {
            case "outbox": return .outbox
            case "test": return .test
            case "twilio": return .twilio(try TwilioSMSSender.Configuration(environment: environment))
            case "webhook":
                guard let url = smsWebhookURL else { throw ValidationError("--sms webhook needs --sms-webhook-url.") }
                guard let secret = environment["WEBAPP_SMS_WEBHOOK_SECRET"] else {
                    throw ValidationError("--sms webhook needs WEBAPP_SMS_WEBHOOK_SECRET in the environment.")
                }
                return .webhook(try WebhookSMSSender.Configuration(url: url, secret: secret))
            default:
                throw ValidationError("--sms must be outbox, twilio, webhook or test, not \(smsMode).")
            }
        } catch let error as SMSConfigurationError {
            throw ValidationError(error.description)
        }
    }

    /// The database `--db` (or `DATABASE_URL`) names: a SQLite file path, or a PostgreSQL URL
    /// whose password may instead come from `PGPASSWORD` (kept out of the process list).
    func database(environment: [String: String]) throws -> (path: String?, postgres: PostgresBackend.Configuration?) {
        guard let given = databasePath ?? environment["DATABASE_URL"] else { return (nil, nil) }
        let lowered = given.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else { return (given, nil) }
        do {
            var postgres = try PostgresBackend.Configuration(url: given)
            if postgres.password == nil { postgres.password = environment["PGPASSWORD"] }
            return (nil, postgres)
        } catch let error as PostgresBackend.ConfigurationError {
            throw ValidationError("--db: \(error.description)")
        }
    }

    func run() async throws {
        let level = logLevel
        // Every line written while handling a request carries its id (request=…), the domain's
        // lines included.
        LoggingSystem.bootstrap(
            { label, provider in
                var handler = StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestID.metadataProvider)
        let logger = Logger(label: "webapp")

        var configuration = AppConfiguration()
        configuration.server.host = host
        configuration.server.port = port
        configuration.dataDirectory = dataDirectory
        (configuration.databasePath, configuration.postgres) = try database(
            environment: ProcessInfo.processInfo.environment)
        configuration.outboxPath = outboxPath
        configuration.sms = try smsDelivery(environment: ProcessInfo.processInfo.environment)
        configuration.templatesDirectory = templatesDirectory
        configuration.publicDirectory = publicDirectory
        configuration.smsDomain = smsDomain
        configuration.appName = appName
        configuration.https = https
        configuration.trustProxy = trustProxy
        configuration.policy.maxCodesPerPhone = maxCodesPerPhone
        configuration.policy.maxCodesPerClient = maxCodesPerClient
        configuration.policy.maxFailuresPerPhone = maxFailuresPerPhone
        if let hex = ProcessInfo.processInfo.environment["WEBAPP_SECRET"] {
            configuration.secret = try ServerSecret(hex: hex, source: "WEBAPP_SECRET")
        }

        let app = try await Application.make(configuration: configuration, logger: logger)
        let address = try await app.start()
        let shownHost = address.ipAddress.map { $0.contains(":") ? "[\($0)]" : $0 } ?? host
        // Written unbuffered: scripts and tests wait for this line to know the port.
        FileHandle.standardOutput.write(Data("Listening on http://\(shownHost):\(address.port ?? port)\n".utf8))

        await Self.waitForTerminationSignal()
        logger.info("Shutting down")
        await app.shutdown()
        logger.info("Stopped")
    }

    /// Suspends until SIGINT or SIGTERM arrives.
    private static func waitForTerminationSignal() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "webapp.signals")
            let once = SignalOnce(continuation)
            for number in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { once.fire() }
                source.resume()
                once.keep(source)
            }
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Resumes a continuation once, from whichever signal comes first.
private final class SignalOnce: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }

    func fire() {
        let continuation = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume()
    }
}
