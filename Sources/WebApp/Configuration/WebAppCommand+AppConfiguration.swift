import ArgumentParser
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import PostgresStorage
import SMSProviders

/// How the command's options, and the secrets only the environment may hold, become the
/// ``AppConfiguration`` the app is assembled from.
extension WebAppCommand {
    /// The delivery `--sms` names, with its settings from the environment (secrets never come
    /// from flags, which other users can see in the process list).
    func smsDelivery(environment: [String: String]) throws -> SMSDelivery {
        do {
            switch smsMode {
            case "outbox": return .outbox
            case "test": return .test
            case "twilio": return .twilio(try TwilioSender.Configuration(environment: environment))
            case "webhook":
                guard let url = smsWebhookURL else { throw ValidationError("--sms webhook needs --sms-webhook-url.") }
                guard let secret = environment["WEBAPP_SMS_WEBHOOK_SECRET"] else {
                    throw ValidationError("--sms webhook needs WEBAPP_SMS_WEBHOOK_SECRET in the environment.")
                }
                return .webhook(try WebhookSender.Configuration(url: url, secret: secret))
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

    /// The regions `--phone-regions` names.
    func textedRegions() throws -> PhoneRegions {
        do {
            return try PhoneRegions(parsing: phoneRegions)
        } catch {
            throw ValidationError("--phone-regions: \(error.description)")
        }
    }

    /// The endpoints `--webhooks` names (none without it).
    func webhooks() throws -> [WebhookEndpoint] {
        guard let webhooksPath else { return [] }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: webhooksPath))
        } catch {
            throw ValidationError("--webhooks: cannot read \(webhooksPath).")
        }
        do {
            return try WebhookEndpoint.parse(data)
        } catch {
            throw ValidationError("--webhooks: \(error.description)")
        }
    }

    /// The operators `--admins` lists (none without it): numbers as a person types them.
    func operators() throws -> Operators {
        guard let admins else { return Operators([]) }
        var phones: [PhoneNumber] = []
        for typed in admins.split(separator: ",") {
            let typed = typed.trimmingCharacters(in: .whitespaces)
            guard !typed.isEmpty else { continue }
            do {
                phones.append(try PhoneNumber(parsing: typed))
            } catch {
                throw ValidationError("--admins: \(typed) is not a phone number we can text (\(error.description)).")
            }
        }
        return Operators(phones)
    }

    /// The app's configuration from the options and the environment.
    func appConfiguration(environment: [String: String]) throws -> AppConfiguration {
        var configuration = AppConfiguration()
        configuration.server.host = host
        configuration.server.port = port
        configuration.dataDirectory = dataDirectory
        (configuration.databasePath, configuration.postgres) = try database(environment: environment)
        configuration.outboxPath = outboxPath
        configuration.sms = try smsDelivery(environment: environment)
        configuration.templatesDirectory = templatesDirectory
        configuration.localesDirectory = localesDirectory
        configuration.publicDirectory = publicDirectory
        configuration.smsDomain = smsDomain
        configuration.appName = appName
        configuration.https = https
        configuration.server.trustProxy = trustProxy
        connections.apply(to: &configuration.server)
        configuration.opsPort = connections.opsPort
        configuration.shutdownDelay = .seconds(connections.shutdownDelay)
        configuration.webhooks = try webhooks()
        limits.apply(to: &configuration.policy)
        configuration.policy.phoneRegions = try textedRegions()
        if let hex = environment["WEBAPP_SECRET"] {
            configuration.secret = try ServerSecret(hex: hex, source: "WEBAPP_SECRET")
        }
        configuration.gateway = try gateway.gateway(https: https)
        configuration.publicURL = try configuration.gateway?.publicURL ?? gateway.publicAddress(https: https)
        configuration.passkeys = try passkeys.configuration(publicURL: configuration.publicURL)
        configuration.oidcClients = try oidc.registry(publicURL: configuration.publicURL)
        configuration.oidcRefreshFamilyLifetime = TimeInterval(oidc.refreshLifetimeDays) * 86_400
        configuration.assertionKeys = try GatewayOptions.assertionKeys(environment: environment)
        configuration.oidcRSAKey = try GatewayOptions.oidcRSAKey(environment: environment)
        configuration.operators = try operators()
        if !configuration.operators.isEmpty, configuration.passkeys == nil {
            throw ValidationError("--admins needs passkeys (the console opens only with one): give --public-url.")
        }
        return configuration
    }
}
