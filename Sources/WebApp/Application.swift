import AuthCore
import Foundation
import GatewayCore
import HTMLRender
import HTTPLite
import JWTKit
import Logging
import NIOCore
import OIDCCore
import Prometheus
import SMSProviders
import ServiceLifecycle
import UnixSignals
import WalletCore
import Wording

/// The whole app, assembled in one place from an ``AppConfiguration``: the `webapp` command and
/// the end-to-end tests both build it with ``make(configuration:logger:sms:clock:gracefulShutdownSignals:)``
/// and run it with ``run()``.
///
/// Running is swift-service-lifecycle's: one `ServiceGroup` of the database, the purge loop and
/// the HTTP server. A graceful shutdown stops them in reverse order: the server answers the
/// requests in flight, the purge loop stops, the database closes last.
final class Application: Sendable {
    let server: HTTPServer<MiddlewareResponder<AppContext>>
    let storage: Storage
    /// The sign-in service the routes use (its store counts events for /metrics).
    let signIn: SignInService
    private let services: ServiceGroup
    /// Where the server listens, once it does (``HTTPService`` yields it).
    private let addresses: AsyncStream<SocketAddress>
    /// Where the operations listener listens, when there is one.
    private let opsAddresses: AsyncStream<SocketAddress>

    private init(
        server: HTTPServer<MiddlewareResponder<AppContext>>, storage: Storage, signIn: SignInService,
        services: ServiceGroup, addresses: AsyncStream<SocketAddress>, opsAddresses: AsyncStream<SocketAddress>
    ) {
        self.server = server
        self.storage = storage
        self.signIn = signIn
        self.services = services
        self.addresses = addresses
        self.opsAddresses = opsAddresses
    }

    /// Opens the database (SQLite is migrated here, PostgreSQL before the server listens), loads
    /// templates and the secret, and wires the routes. Nothing listens until ``run()``.
    ///
    /// - Parameter gracefulShutdownSignals: the signals that shut the app down gracefully (the
    ///   command's SIGTERM and SIGINT; none in tests, which call ``shutdown()``).
    /// The catalogs of `Locales/`, checked: every language has every key, and every key a
    /// template names exists (a start that would show a person a key stops here instead).
    static func wording(_ configuration: AppConfiguration) throws -> Wording {
        let wording = try Wording(directory: configuration.localesDirectory)
        var templates: [String: String] = [:]
        for name in Pages.templateNames {
            let path = (configuration.templatesDirectory as NSString).appendingPathComponent(name + ".mustache")
            templates[name] = try String(contentsOfFile: path, encoding: .utf8)
        }
        let missing = wording.missingKeys(inTemplates: templates)
        if !missing.isEmpty { throw Wording.Problems(problems: missing.map { "no word for \($0)" }) }
        return wording
    }

    static func make(
        configuration: AppConfiguration, logger: Logger, sms: (any CodeSender)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }, gracefulShutdownSignals: [UnixSignal] = []
    ) async throws -> Application {
        // The data folder holds the database and the secret: this user's only (0700).
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let secret = try configuration.secret ?? ServerSecret.loadOrCreate(at: configuration.secretPath)
        let renderer = try await PageRenderer(
            directory: configuration.templatesDirectory, required: Pages.templateNames)
        let wording = try Self.wording(configuration)
        let storage = try Storage.open(configuration, logger: logger)
        // Public/ in memory, shared by the pages (for its content-hashed addresses) and the server.
        let assets = StaticAssets(folder: configuration.publicDirectory)
        let sender = try sms ?? Self.smsSender(configuration, logger: logger)
        // Metrics go to this app's own registry, exported at /metrics.
        let registry = PrometheusCollectorRegistry()
        let metrics = PrometheusMetricsFactory(registry: registry)
        let makeCode: @Sendable () -> OneTimeCode
        if configuration.sms.isTestMode { makeCode = { .testMode } } else { makeCode = { .random() } }
        // Every decision's events are counted by type once committed (`events_total`).
        let auth = EventCountingStore(storage.auth, factory: metrics)
        let signIn = SignInService(
            store: auth, sms: sender, hasher: CodeHasher(secret: secret),
            composer: MessageComposer(
                appName: configuration.appName, domain: configuration.smsDomain, wording: wording),
            policy: configuration.policy, logger: logger, clock: clock,
            makeCode: makeCode, metrics: SignInMetrics(factory: metrics))

        let wallet = Wallet(store: storage.wallet, clock: clock)

        let requestMetrics = RequestMetrics(factory: metrics)
        let securityHeaders = SecurityHeaders(
            https: configuration.https,
            formTargets: (configuration.gateway.map(Self.formTargets) ?? [])
                + (configuration.oidcClients.map(Self.formTargets) ?? []),
            assetOrigin: configuration.gateway?.publicURL, inlineScripts: renderer.inlineScripts)
        var routes = Routes(
            configuration: configuration, secret: secret,
            pages: Pages(
                renderer: renderer, wording: wording, testMode: configuration.sms.isTestMode, clock: clock,
                assets: assets, passkeys: configuration.passkeys != nil),
            signIn: signIn, assets: assets,
            wallet: wallet, storage: storage, requestMetrics: requestMetrics, securityHeaders: securityHeaders,
            registry: registry, clock: clock, logger: logger)
        if configuration.passkeys == nil, let publicURL = configuration.publicURL,
            PasskeyConfiguration.relyingParty(publicURL: publicURL) == nil
        {
            logger.notice("No passkeys: --public-url is an IP address, which WebAuthn does not take as a site's name")
        }
        if let passkeys = configuration.passkeys {
            routes.passkeys = PasskeyService(
                relyingParty: passkeys.relyingParty, siteName: configuration.appName ?? "Phone Login",
                store: auth, policy: configuration.policy, logger: logger, clock: clock,
                metrics: SignInMetrics(factory: metrics))
            routes.passkeys?.operatorPhones = configuration.operators.phones
            logger.info(
                "Passkeys",
                metadata: ["rp-id": "\(passkeys.relyingParty.id)", "origin": "\(passkeys.relyingParty.origin)"])
        }
        // Gateway mode and the OpenID Connect provider sign with the same keys, once loaded, and
        // the same issuer (the gateway's address is --public-url).
        if configuration.gateway != nil || configuration.providerClients != nil,
            let issuer = configuration.gateway?.publicURL ?? configuration.publicURL
        {
            let keys =
                try configuration.assertionKeys
                ?? AssertionKeys.loadOrCreate(folder: configuration.dataDirectory, now: clock())
            // The provider's RS256 key (Discovery §3), shared by instances through the environment.
            let rsa =
                configuration.providerClients == nil
                ? nil
                : try configuration.oidcRSAKey ?? RSASigningKey.loadOrCreate(folder: configuration.dataDirectory)
            routes.signer = try await AssertionSigner(keys: keys, issuer: issuer, rsa: rsa, clock: clock)
        }
        if let clients = configuration.providerClients, let issuer = configuration.publicURL, let signer = routes.signer {
            routes.oidc = OIDCProvider(
                issuer: issuer, registry: clients, store: storage.oidc, signer: OIDCSigner(signer: signer),
                subjectKey: secret.derivedKey(purpose: "oidc-subject"), logger: logger,
                refreshFamilyLifetime: configuration.oidcRefreshFamilyLifetime,
                freshProofWithin: configuration.policy.confirmWithin, clock: clock, apps: storage.apps)
            logger.info(
                "OpenID Connect provider", metadata: ["issuer": "\(issuer)", "clients": "\(clients.clients.count)"])
        }
        if let gateway = configuration.gateway {
            logger.info(
                "Gateway mode",
                metadata: [
                    "domain": "\(gateway.domain)", "public-url": "\(gateway.publicURL)",
                    "rules-hosts": "\(gateway.rules.hostCount)", "kid": "\(routes.signer?.keyID ?? "")",
                ])
        }
        // The answers the server gives before any middleware (413, 431, …) carry the same
        // security headers and are counted too, as are the connections it closes at once.
        var serverConfiguration = configuration.server
        serverConfiguration.refusalHeaders = securityHeaders.headers
        serverConfiguration.onRefusal = { requestMetrics.countRefusal($0.code) }
        serverConfiguration.onConnectionRefused = { requestMetrics.countRefusedConnection($0) }
        let server = HTTPServer(
            responder: try routes.responder(), configuration: serverConfiguration, logger: logger,
            draining: routes.draining)
        let (addresses, listening) = AsyncStream.makeStream(of: SocketAddress.self)
        let readiness = StorageReadiness(prepare: storage.prepare)
        let oidc = routes.oidc
        let reportsExpected = routes.deliveryCallbacks != nil
        var services: [any Service] = [
            storage.service,
            // Deletes what has expired: sessions, codes, wallet form keys older than a day.
            RepeatingService(name: "Purge", interval: configuration.purgeInterval, storage: readiness, logger: logger) {
                let removed = try await signIn.purgeExpired() + wallet.purgeKeys() + (oidc?.purge() ?? 0)
                if removed > 0 { logger.info("Purged expired data", metadata: ["rows": "\(removed)"]) }
            },
            // The last hour's conversion and delivery rates, for /metrics and the log's warnings.
            RepeatingService(
                name: "Health check", interval: configuration.healthInterval, storage: readiness, logger: logger
            ) { try await signIn.checkHealth(reportsExpected: reportsExpected) },
            HTTPService(server: server, storage: readiness, listening: listening, logger: logger),
        ]
        // The events' outbox: the --webhooks endpoints, and the apps told that a session ended.
        if !configuration.webhooks.isEmpty {
            services.append(
                OutboxService(
                    .webhook, recipients: configuration.webhooks.map(WebhookRecipient.init), deliveries: storage.webhooks,
                    storage: readiness, interval: configuration.webhookInterval, clock: clock, logger: logger,
                    factory: metrics))
        }
        let logouts = oidc.map { provider in
            provider.registry.clients.values.compactMap { BackChannelLogoutRecipient($0, provider: provider) }
        }
        if let logouts, !logouts.isEmpty {
            services.append(
                OutboxService(
                    .backchannelLogout, recipients: logouts, deliveries: storage.webhooks, storage: readiness,
                    interval: configuration.webhookInterval, clock: clock, logger: logger, factory: metrics))
        }
        let (opsAddresses, opsListening) = AsyncStream.makeStream(of: SocketAddress.self)
        if let opsPort = configuration.opsPort {
            var opsConfiguration = serverConfiguration
            opsConfiguration.port = opsPort
            let opsServer = HTTPServer(
                responder: routes.opsResponder(), configuration: opsConfiguration, logger: logger,
                draining: routes.draining)
            services.append(HTTPService(server: opsServer, storage: readiness, listening: opsListening, logger: logger))
        } else {
            opsListening.finish()
        }
        // Last, so the first to hear of a shutdown: /readyz says 503 before anything closes.
        if configuration.shutdownDelay > .zero {
            services.append(DrainService(draining: routes.draining, delay: configuration.shutdownDelay, logger: logger))
        }
        return Application(
            server: server, storage: storage, signIn: signIn,
            services: ServiceGroup(
                services: services, gracefulShutdownSignals: gracefulShutdownSignals, cancellationSignals: [],
                logger: logger),
            addresses: addresses, opsAddresses: opsAddresses)
    }

    /// Where a sign-in form's redirect may lead in gateway mode: the domain's apps on any port
    /// (a CSP source without a port admits only the scheme's default one), over HTTPS (and HTTP
    /// when the app itself is not served over HTTPS).
    static func formTargets(_ gateway: Gateway) -> [String] {
        let schemes = gateway.allowHTTP ? ["https", "http"] : ["https"]
        return schemes.flatMap { ["\($0)://\(gateway.domain.name):*", "\($0)://*.\(gateway.domain.name):*"] }
    }

    /// The OpenID Connect clients' redirect URIs' origins: a form of ours (Verify, the consent
    /// page) ends in a redirect back to the app, which CSP's `form-action` also governs.
    static func formTargets(_ clients: ClientRegistry) -> [String] {
        let origins = clients.clients.values.flatMap(\.redirectURIs).compactMap { uri -> String? in
            guard let components = URLComponents(string: uri), let scheme = components.scheme,
                let host = components.host
            else { return nil }
            return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
        }
        return Array(Set(origins)).sorted()
    }

    /// `--rotate-assertion-key`: a new signing key in the data folder, the old one kept as the
    /// previous key (listed for a day from the next start).
    static func rotateAssertionKey(_ configuration: AppConfiguration) throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let kid = try AssertionKeys.rotate(folder: configuration.dataDirectory)
        FileHandle.standardOutput.write(
            Data("New assertion key \(kid) in \(configuration.dataDirectory); restart to sign with it.\n".utf8))
    }

    /// Runs the services until a graceful shutdown (a signal given to `make`, or ``shutdown()``)
    /// has stopped them all, or one of them failed (its error is thrown).
    func run() async throws {
        try await services.run()
    }

    /// Where the server listens (with the real port when port 0 was asked for), once it does;
    /// `nil` when it stopped before. Only the first call is answered.
    func listeningAddress() async -> SocketAddress? {
        await addresses.first { _ in true }
    }

    /// Where the `--ops-port` listener listens, once it does; `nil` without one. Only the first
    /// call is answered.
    func opsListeningAddress() async -> SocketAddress? {
        await opsAddresses.first { _ in true }
    }

    /// Begins a graceful shutdown, as SIGTERM does; ``run()`` returns when it is done.
    func shutdown() async {
        await services.triggerGracefulShutdown()
    }
}
