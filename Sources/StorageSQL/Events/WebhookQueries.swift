import AuthCore
import EventsCore
import Foundation

/// What the webhook deliveries are kept with, once for both databases (``EventsCore/WebhookDeliveries``).
public enum WebhookQueries {
    static let register = SQL(
        """
        INSERT INTO webhook_endpoints (url, kind, cursor, failures, next_attempt_at, lease_until)
        VALUES ($1, $2, (SELECT coalesce(max(id), 0) FROM events), 0, $3, 0)
        ON CONFLICT (url) DO NOTHING
        """)

    public static func register(_ urls: [String], as kind: OutboxReader, now: Double) -> Step<Int> {
        .execute(urls.map { Statement(register, $0, kind.rawValue, now) })
    }

    /// The most overdue endpoint, leased in one statement: two instances asking at once both see
    /// it free, but the second's UPDATE finds the lease taken (PostgreSQL re-reads the row it
    /// waited for; SQLite has one writer) and claims nothing.
    static let claim = SQL(
        """
        UPDATE webhook_endpoints SET lease_until = $2
        WHERE url = (SELECT url FROM webhook_endpoints
                     WHERE kind = $3 AND paused_at IS NULL AND next_attempt_at <= $1 AND lease_until <= $1
                     ORDER BY next_attempt_at, url LIMIT 1)
          AND paused_at IS NULL AND lease_until <= $1
        RETURNING url, cursor, failures, lease_until
        """)

    public static func claimDue(_ kind: OutboxReader, now: Double, lease: Double) -> Step<DeliveryCursor?> {
        .rows(Statement(claim, now, now + lease, kind.rawValue)) { rows in
            .done(
                try rows.first.map {
                    DeliveryCursor(
                        url: try $0.get("url"), cursor: try $0.get("cursor"), failures: try $0.get("failures"),
                        leaseUntil: try $0.get("lease_until"))
                })
        }
    }

    static let nextEvents = SQL("SELECT \(EventQueries.columns) FROM events WHERE id > $1 ORDER BY id LIMIT $2")

    public static func next(after cursor: Int64, limit: Int) -> Step<[StoredEvent]> {
        .rows(Statement(nextEvents, cursor, limit)) { rows in .done(try rows.compactMap(EventQueries.stored)) }
    }

    static let endpointRows = SQL(
        """
        SELECT url, kind, cursor, failures, next_attempt_at, paused_at, last_error,
            (SELECT count(*) FROM events WHERE events.id > webhook_endpoints.cursor) AS behind
        FROM webhook_endpoints ORDER BY url
        """)

    public static func endpoints() -> Step<[EndpointStatus]> {
        .rows(Statement(endpointRows)) { rows in
            .done(
                try rows.map {
                    EndpointStatus(
                        url: try $0.get("url"), kind: try kind($0), cursor: try $0.get("cursor"), behind: try $0.get("behind"),
                        failures: try $0.get("failures"), nextAttemptAt: try $0.get("next_attempt_at"),
                        pausedAt: try $0.optional("paused_at"), lastError: try $0.optional("last_error"))
                })
        }
    }

    /// A kind the code does not know is corrupt data.
    static func kind(_ row: any SQLRow) throws -> OutboxReader {
        guard let kind = OutboxReader(rawValue: try row.get("kind")) else {
            throw StoredDataCorrupt("a webhook endpoint of an unknown kind")
        }
        return kind
    }

    static let resume = SQL(
        "UPDATE webhook_endpoints SET paused_at = NULL, failures = 0, next_attempt_at = $2, lease_until = 0 WHERE url = $1")

    public static func resume(_ url: String, now: Double) -> Step<Int> {
        .execute([Statement(resume, url, now)])
    }

    // Each write names the claim's lease (`lease_until = $2`): one whose lease was taken over
    // by another sender changes nothing.
    static let advance = SQL(
        """
        UPDATE webhook_endpoints SET cursor = CASE WHEN cursor < $3 THEN $3 ELSE cursor END, failures = 0,
            next_attempt_at = $4, last_error = NULL
        WHERE url = $1 AND lease_until = $2
        """)
    static let failed = SQL(
        """
        UPDATE webhook_endpoints SET failures = failures + 1, next_attempt_at = coalesce($3, next_attempt_at),
            paused_at = CASE WHEN $4 THEN $5 ELSE NULL END, last_error = $6, lease_until = 0
        WHERE url = $1 AND lease_until = $2
        """)
    static let release = SQL(
        "UPDATE webhook_endpoints SET lease_until = 0, next_attempt_at = $3 WHERE url = $1 AND lease_until = $2")

    public static func advance(_ claim: DeliveryCursor, past id: Int64, now: Double) -> Step<Int> {
        .execute([Statement(advance, claim.url, claim.leaseUntil, id, now)])
    }

    public static func failed(_ claim: DeliveryCursor, retryAt: Double?, error: String, now: Double) -> Step<Int> {
        .execute([
            Statement(failed, claim.url, claim.leaseUntil, retryAt, retryAt == nil, now, String(error.prefix(500)))
        ])
    }

    public static func release(_ claim: DeliveryCursor, next: Double) -> Step<Int> {
        .execute([Statement(release, claim.url, claim.leaseUntil, next)])
    }
}
