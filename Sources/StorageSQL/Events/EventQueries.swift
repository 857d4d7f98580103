import AuthCore
import EventsCore
import Foundation

/// What the events table is written and read with, once for both databases.
public enum EventQueries {
    /// One event. With no user, the account the number is on when the row is written (a first
    /// sign-in made it a statement earlier in the same transaction).
    static let insert = SQL(
        """
        INSERT INTO events (at, type, user_id, phone, detail, reference, app, user_agent, network, actor, reason)
        VALUES ($1, $2, coalesce($3, (SELECT id FROM users WHERE phone = $4)), $4, $5, $6, $7, $8, $9, $10, $11)
        """)

    public static func insert(_ event: Event) -> Statement {
        Statement(insert, arguments: arguments(event))
    }

    /// `$1` to `$11` of both inserts.
    static func arguments(_ event: Event) -> [SQLValue] {
        [
            event.at.sqlValue, event.type.rawValue.sqlValue, event.user.sqlValue, event.phone.sqlValue,
            event.detail.sqlValue, event.reference.sqlValue, event.app.sqlValue, event.userAgent.sqlValue,
            event.network.sqlValue, event.actor.sqlValue, event.reason.sqlValue,
        ]
    }

    /// The number's unowned events since `$2` given to the account it is on now.
    static let adopt = SQL(
        """
        UPDATE events SET user_id = (SELECT id FROM users WHERE phone = $1)
        WHERE phone = $1 AND user_id IS NULL AND at >= $2
        """)

    /// The event of the number's newest send, when that send is withdrawn (its provider refused it).
    static let forgetNewestSend = SQL(
        "DELETE FROM events WHERE id = (SELECT max(id) FROM events WHERE phone = $1 AND type = 'code.sent')")

    /// One event, unless its number has one of its type at or after `$12`.
    static let insertOnce = SQL(
        """
        INSERT INTO events (at, type, user_id, phone, detail, reference, app, user_agent, network, actor, reason)
        SELECT $1, $2, coalesce($3, (SELECT id FROM users WHERE phone = $4)), $4, $5, $6, $7, $8, $9, $10, $11
        WHERE NOT EXISTS (SELECT 1 FROM events WHERE phone = $4 AND type = $2 AND at >= $12)
        """)

    public static func insert(_ event: Event, unlessSince since: Double) -> Statement {
        Statement(insertOnce, arguments: arguments(event) + [since.sqlValue])
    }

    /// A code's delivery status, as its provider reported it, on the event of its send.
    static let deliveryStatus = SQL("UPDATE events SET status = $1 WHERE reference = $2 AND type = 'code.sent'")

    static let columns = "id, at, type, user_id, phone, detail, reference, status, app, user_agent, network, actor, reason"

    static let ofUser = SQL(
        "SELECT \(columns) FROM events WHERE user_id = $1 AND at >= $2 AND id < $3 ORDER BY id DESC LIMIT $4")

    public static func activity(user: Int64, since: Double, before: Int64?, limit: Int) -> Step<[StoredEvent]> {
        .rows(Statement(ofUser, user, since, before ?? Int64.max, limit)) { .done(try $0.compactMap(stored)) }
    }

    /// Every filter is always bound, its "any" as a value that matches everything, so both
    /// databases see one statement with typed parameters.
    static let filtered = SQL(
        """
        SELECT \(columns) FROM events
        WHERE id > $1 AND at >= $2 AND at < $3 AND ($4 = '' OR phone = $4) AND ($5 = '' OR type = $5)
        ORDER BY id LIMIT $6
        """)

    public static func export(_ filter: EventFilter, after: Int64, limit: Int) -> Step<[StoredEvent]> {
        .rows(
            Statement(
                filtered, after, filter.since ?? 0, filter.until ?? 1e300, filter.phone ?? "",
                filter.type?.rawValue ?? "", limit)
        ) { .done(try $0.compactMap(stored)) }
    }

    /// A row as an event; nil for a type this version does not know (written by a newer one).
    static func stored(_ row: any SQLRow) throws -> StoredEvent? {
        guard let type = EventType(rawValue: try row.get("type")) else { return nil }
        var event = Event(
            type, at: try row.get("at"), user: try row.optional("user_id"), phone: try row.optional("phone"),
            detail: try row.optional("detail"), reference: try row.optional("reference"), app: try row.optional("app"),
            userAgent: try row.optional("user_agent"))
        event.network = try row.optional("network")
        event.actor = try row.optional("actor")
        event.reason = try row.optional("reason")
        return StoredEvent(id: try row.get("id"), event: event, status: try row.optional("status"))
    }

    /// Signed-in sessions whose time ran out, deleted, each noted as ended by expiry (the
    /// purge). `RETURNING` hands each row to one deleter, so two instances purging at once note
    /// each session once.
    static let expireSessions = SQL(
        """
        DELETE FROM sessions WHERE expires_at <= $1
        RETURNING key, user_id, expires_at, absolute_expires_at, user_agent
        """)

    /// The sessions deleted, and how many of them were signed in (each noted as ended).
    public static func expireSessions(by cutoff: Double) -> Step<(sessions: Int, ended: Int)> {
        .rows(Statement(expireSessions, cutoff)) { rows in
            let ended = try rows.compactMap { row -> Statement? in
                guard let user: Int64 = try row.optional("user_id") else { return nil }
                let idle: Double = try row.get("expires_at")
                let absolute: Double = try row.get("absolute_expires_at")
                return insert(
                    Event(
                        .signedOut, at: min(idle, absolute), user: user, detail: SessionEnd.expired.rawValue,
                        reference: SessionToken.sid(ofStorageKey: try row.get("key")),
                        userAgent: try row.optional("user_agent")))
            }
            return Step<Int>.execute(ended).map { _ in (rows.count, ended.count) }
        }
    }
}
