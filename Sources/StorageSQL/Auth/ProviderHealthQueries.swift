import AuthCore
import DeliveryCore
import Foundation

/// The provider's breaker in the database (``AuthCore/ProviderHealth``): one row per channel
/// that has failed lately, none once it recovers, so every instance pauses and resumes together.
enum ProviderHealthQueries {
    static func health(_ channel: DeliveryChannel) -> Step<ProviderHealth> {
        .rows(Statement(healthOf, channel.rawValue)) { rows in
            guard let row = rows.first else { return .done(ProviderHealth()) }
            return .done(ProviderHealth(failures: try row.get("failures"), pausedUntil: try row.optional("paused_until")))
        }
    }

    static func statements(for change: AuthChange) -> [Statement] {
        switch change {
        case .providerFailed(let channel, let failures, let pausedUntil):
            [Statement(upsertFailures, channel.rawValue, Int64(failures), pausedUntil)]
        case .holdProvider(let channel, let until):
            [Statement(hold, until, channel.rawValue)]
        case .providerRecovered(let channel):
            [Statement(forget, channel.rawValue)]
        default:
            []
        }
    }

    static let healthOf = SQL("SELECT failures, paused_until FROM provider_health WHERE channel = $1")
    static let upsertFailures = SQL(
        """
        INSERT INTO provider_health (channel, failures, paused_until) VALUES ($1, $2, $3)
        ON CONFLICT (channel) DO UPDATE SET failures = excluded.failures, paused_until = excluded.paused_until
        """)
    static let hold = SQL("UPDATE provider_health SET paused_until = $1 WHERE channel = $2")
    static let forget = SQL("DELETE FROM provider_health WHERE channel = $1")
}
