import AuthCore
import Foundation
import HTMLRender
import HTTPLite
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Prometheus
import SMSGateways
import WalletCore

/// The whole app, assembled in one place from an ``AppConfiguration``: the `webapp` command and
/// the end-to-end tests both build it with ``make(configuration:logger:)``.
final class Application: Sendable {
    let configuration: AppConfiguration
    let server: HTTPServer<MiddlewareResponder<AppContext>>
    let storage: Storage
    let signIn: SignInService
    let wallet: Wallet
    private let logger: Logger
    private let purgeTask: LockedTask

    private init(
        configuration: AppConfiguration, server: HTTPServer<MiddlewareResponder<AppContext>>, storage: Storage,
        signIn: SignInService, wallet: Wallet, logger: Logger
    ) {
        self.configuration = configuration
        self.server = server
        self.storage = storage
        self.signIn = signIn
        self.wallet = wallet
        self.logger = logger
        self.purgeTask = LockedTask()
    }

    /// Opens the database (running migrations), loads templates and the secret, and wires the
    /// routes. Nothing listens until ``start()``.
    static func make(
        configuration: AppConfiguration, logger: Logger, sms: (any SMSSender)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> Application {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let secret = try configuration.secret ?? ServerSecret.loadOrCreate(at: configuration.secretPath)
        let renderer = try await PageRenderer(
            directory: configuration.templatesDirectory, required: Pages.templateNames)
        let storage = try await Storage.open(configuration, logger: logger)
        let sender = try sms ?? Self.smsSender(configuration, logger: logger)
        // Metrics go to this app's own registry, exported at /metrics.
        let registry = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory(registry: registry)
        let makeCode: @Sendable () -> OneTimeCode
        if case .test = configuration.sms { makeCode = { .testMode } } else { makeCode = { .random() } }
        let signIn = SignInService(
            store: storage.auth, sms: sender, hasher: CodeHasher(secret: secret),
            composer: SMSMessageComposer(appName: configuration.appName, domain: configuration.smsDomain),
            policy: configuration.policy, logger: logger, clock: clock,
            makeCode: makeCode, metrics: SignInMetrics(factory: metrics))

        let wallet = Wallet(store: storage.wallet, clock: clock)

        let responder = try Routes(
            configuration: configuration, secret: secret, pages: Pages(renderer: renderer), signIn: signIn,
            wallet: wallet, storage: storage, metrics: metrics, registry: registry
        ).responder()
        let server = HTTPServer(responder: responder, configuration: configuration.server, logger: logger)
        return Application(
            configuration: configuration, server: server, storage: storage, signIn: signIn, wallet: wallet,
            logger: logger)
    }

    /// The sender `configuration.sms` names. Test mode is refused unless the server listens on
    /// a loopback address only: with every code 123456, anyone who can reach it can sign in as
    /// anyone.
    static func smsSender(_ configuration: AppConfiguration, logger: Logger) throws -> any SMSSender {
        switch configuration.sms {
        case .outbox:
            return try OutboxSMSSender(path: configuration.resolvedOutboxPath, logger: logger)
        case .twilio(let twilio):
            return TwilioSMSSender(configuration: twilio, logger: logger)
        case .webhook(let webhook):
            return WebhookSMSSender(configuration: webhook, logger: logger)
        case .test:
            guard Self.isLoopback(configuration.server.host) else {
                throw SMSConfigurationError(
                    "SMS test mode (every code is 123456) only runs on a loopback address such as 127.0.0.1, not \(configuration.server.host)."
                )
            }
            logger.warning("SMS TEST MODE: no texts are sent and every code is 123456. Never use this in production.")
            return TestModeSMSSender(logger: logger)
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Starts listening and the background purge (expired sessions and codes, wallet form keys
    /// older than a day); returns the bound address.
    @discardableResult
    func start() async throws -> SocketAddress {
        let address = try await server.start()
        let signIn = self.signIn
        let wallet = self.wallet
        let interval = configuration.purgeInterval
        let logger = self.logger
        purgeTask.set(
            Task {
                while !Task.isCancelled {
                    do {
                        let removed = try await signIn.purgeExpired() + wallet.purgeKeys()
                        if removed > 0 { logger.info("Purged expired data", metadata: ["rows": "\(removed)"]) }
                    } catch {
                        logger.error("Purge failed", metadata: ["error": "\(error)"])
                    }
                    try? await Task.sleep(for: interval)
                }
            })
        return address
    }

    /// Stops accepting, finishes requests in flight, stops the purge, closes the database.
    func shutdown() async {
        await server.shutdown()
        purgeTask.cancel()
        do {
            try await storage.close()
        } catch {
            logger.error("Closing the database failed", metadata: ["error": "\(error)"])
        }
    }
}

/// A task handle that can be set and cancelled from any thread.
private final class LockedTask: Sendable {
    private let box = NIOLockedValueBox<Task<Void, Never>?>(nil)
    func set(_ task: Task<Void, Never>) { box.withLockedValue { $0 = task } }
    func cancel() { box.withLockedValue { $0?.cancel() } }
}
