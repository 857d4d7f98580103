import ConsoleCore
import Foundation

/// What the console's glance reads, once for both databases: sends by hour, sign-ins by method,
/// and each exchange's settled codes (ConsoleCore decides which the breaker holds).
public enum ConsoleQueries {
    /// Sends since `$1` by hour (0: the hour `$1` begins), channel and status: how many, how many
    /// used, what they cost. The hour is the one real difference: SQLite's integer cast truncates
    /// (the times are after `$1`, so it floors), PostgreSQL's rounds, so it floors first.
    static let sendsByHour = SQL(
        sqlite: """
            SELECT CAST((sent_at - $1) / 3600 AS INTEGER) AS hour, channel, status, count(*) AS sends,
                   count(verified_at) AS used, CAST(coalesce(sum(cost), 0) AS BIGINT) AS spent
            FROM code_sends WHERE sent_at >= $1
            GROUP BY 1, channel, status
            """,
        postgres: """
            SELECT CAST(floor((sent_at - $1) / 3600) AS BIGINT) AS hour, channel, status, count(*) AS sends,
                   count(verified_at) AS used, CAST(coalesce(sum(cost), 0) AS BIGINT) AS spent
            FROM code_sends WHERE sent_at >= $1
            GROUP BY 1, channel, status
            """)

    /// Sign-ins since `$1` by how they were proved.
    static let signInsByMethod = SQL(
        """
        SELECT coalesce(detail, '') AS method, count(*) AS sign_ins FROM events
        WHERE type = 'session.created' AND at >= $1 GROUP BY detail
        """)

    /// Each exchange's codes sent in the breaker's window (`$1` to `$2`), with at least `$3`.
    /// Numbers of deleted accounts are kept as digests, not numbers: they have no exchange.
    static let exchanges = SQL(
        """
        SELECT \(AuthReads.exchange) AS exchange, count(*) AS sent, count(verified_at) AS used FROM code_sends
        WHERE sent_at > $1 AND sent_at <= $2 AND phone LIKE '+1%'
        GROUP BY \(AuthReads.exchange) HAVING count(*) >= $3
        """)

    /// An operator's enrollment link: a passkey that opens the console, added without a passkey
    /// proof (the shell vouches for it), once, before it expires.
    static let addEnrollment = SQL(
        "INSERT INTO operator_enrollments (token_sha256, phone, expires_at) VALUES ($1, $2, $3)")
    static let liveEnrollment = SQL(
        """
        SELECT 1 AS live FROM operator_enrollments
        WHERE token_sha256 = $1 AND phone = $2 AND used_at IS NULL AND expires_at > $3
        """)
    static let useEnrollment = SQL(
        """
        UPDATE operator_enrollments SET used_at = $3
        WHERE token_sha256 = $1 AND phone = $2 AND used_at IS NULL AND expires_at > $3
        """)

    public static func glance(since: Double, breakerSince: Double, settledBy: Double, minCodes: Int)
        -> Step<GlanceCounts>
    {
        .rows(Statement(sendsByHour, since)) { sendRows in
            let sends = try sendRows.map { row in
                (
                    hour: try row.get("hour") as Int, channel: try row.get("channel") as String,
                    status: try row.get("status") as String, count: try row.get("sends") as Int,
                    used: try row.get("used") as Int, spent: try row.get("spent") as Int
                )
            }
            return .rows(Statement(signInsByMethod, since)) { signInRows in
                let signIns = try signInRows.map {
                    (method: try $0.get("method") as String, count: try $0.get("sign_ins") as Int)
                }
                return .rows(Statement(exchanges, breakerSince, settledBy, minCodes)) { exchangeRows in
                    .done(
                        GlanceCounts(
                            sends: sends, signIns: signIns,
                            exchanges: try exchangeRows.map {
                                (
                                    exchange: try $0.get("exchange") as String, sent: try $0.get("sent") as Int,
                                    used: try $0.get("used") as Int
                                )
                            }))
                }
            }
        }
    }
}
