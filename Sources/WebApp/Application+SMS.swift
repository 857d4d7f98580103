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

/// The SMS provider the configuration names, and test mode's guard.
extension Application {
    /// The sender `configuration.sms` names. Test mode is refused unless the server listens on
    /// a loopback address only and is reached neither through a proxy (`trustProxy`) nor over
    /// HTTPS (which means a proxy or a public name in front): with every code 123456, anyone who
    /// can reach it can sign in as anyone.
    static func smsSender(_ configuration: AppConfiguration, logger: Logger) throws -> any CodeSender {
        switch configuration.sms.reporting(to: configuration.publicURL ?? configuration.gateway?.publicURL) {
        case .outbox:
            return try OutboxSender(path: configuration.resolvedOutboxPath, logger: logger)
        case .twilio(let twilio):
            return TwilioSender(configuration: twilio, logger: logger)
        case .webhook(let webhook):
            return WebhookSender(configuration: webhook, logger: logger)
        case .test:
            guard Self.isLoopback(configuration.server.host) else {
                throw SMSConfigurationError(
                    "SMS test mode (every code is 123456) only runs on a loopback address such as 127.0.0.1, not \(configuration.server.host)."
                )
            }
            guard !configuration.server.trustProxy, !configuration.https else {
                throw SMSConfigurationError(Self.testModeBehindProxy)
            }
            logger.warning("SMS TEST MODE: no texts are sent and every code is 123456. Never use this in production.")
            return TestModeSender(logger: logger)
        }
    }

    /// Why test mode is refused together with `--trust-proxy` or `--https`.
    static let testModeBehindProxy =
        "SMS test mode (every code is 123456) cannot run with --trust-proxy or --https: both mean it is reached from other machines."

    /// Whether `host` names a loopback address (`localhost`, `::1`, 127.0.0.0/8).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
