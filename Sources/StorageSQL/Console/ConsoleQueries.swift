import AuthCore
import ConsoleCore
import Foundation

/// What the console's glance reads, once for both databases: sends by hour, sign-ins by method
/// (both from the hourly counts that triggers keep, migration v25), and each exchange's settled
/// codes (ConsoleCore decides which the breaker holds).
public enum ConsoleQueries {
    /// The hours from `$1` to before `$2` (an hour's number: seconds since 1970 over 3,600), each
    /// by channel and delivery status: how many, how many used, what they cost. `hour` counts
    /// from `$1`. (An hour after the glance's last, after the clock was set back, is not shown.)
    static let sendsByHour = SQL(
        """
        SELECT hour - $1 AS hour, channel, status, sends, used, spent FROM send_hours
        WHERE hour >= $1 AND hour < $2
        """)

    /// Sign-ins from the hour `$1` to before `$2` by how they were proved.
    static let signInsByMethod = SQL(
        """
        SELECT method, CAST(sum(sign_ins) AS BIGINT) AS sign_ins FROM sign_in_hours
        WHERE hour >= $1 AND hour < $2 GROUP BY method
        """)

    /// Each exchange's codes sent in the breaker's window (`$1` to `$2`), with at least `$3`.
    /// Numbers of deleted accounts are kept as digests, not numbers: they have no exchange.
    static let exchanges = SQL(
        """
        SELECT \(AuthReads.exchange) AS exchange, count(*) AS sent, count(verified_at) AS used FROM code_sends
        WHERE sent_at > $1 AND sent_at <= $2 AND phone LIKE '+1%'
        GROUP BY \(AuthReads.exchange) HAVING count(*) >= $3
        """)

    /// Whether the person has a passkey that is not turned off (the console opens to no other).
    static let livePasskey = SQL("SELECT \(AuthReads.hasLivePasskey("$1")) AS has_passkey")

    /// The console's door, in one read: the session with this key and, when its person is one of
    /// `operators`, whether they have a passkey that is not turned off (asked of no one else).
    public static func sessionAndPasskey(session key: Data, operators: Operators) -> Step<(SessionRecord?, Bool)> {
        AuthReads.session(key).then { session in
            guard let user = session?.userID, let phone = session?.userPhone, operators.contains(phone) else {
                return .done((session, false))
            }
            return .rows(Statement(livePasskey, user)) { rows in
                .done((session, try rows.first.map { try $0.get("has_passkey") as Int64 } == 1))
            }
        }
    }

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

    /// The glance's counts for its ``ConsoleCore/Glance/hours`` hours from the one `since` falls
    /// in (``ConsoleCore/Glance/since(_:)`` is the start of one).
    public static func glance(since: Double, breakerSince: Double, settledBy: Double, minCodes: Int)
        -> Step<GlanceCounts>
    {
        let firstHour = Int64((since / 3600).rounded(.down))
        let end = firstHour + Int64(Glance.hours)
        return .rows(Statement(sendsByHour, firstHour, end)) { sendRows in
            let sends = try sendRows.map { row in
                (
                    hour: try row.get("hour") as Int, channel: try row.get("channel") as String,
                    status: try row.get("status") as String, count: try row.get("sends") as Int,
                    used: try row.get("used") as Int, spent: try row.get("spent") as Int
                )
            }
            return .rows(Statement(signInsByMethod, firstHour, end)) { signInRows in
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
