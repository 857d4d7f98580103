import AuthCore
import Foundation
import Synchronization

/// The reads of the sending limits, the spend budget and the pumping breaker (``AuthReads``).
extension AuthReads {
    /// The "n-th newest since T" statement for each kind of event: the time of the event at
    /// `position` (0 = the newest) among the subject's events after `since`, through the
    /// (subject, time) index, so one row is read however many events there are. An exchange is
    /// read by ``exchange``, through its own index. Its four values are `$first` (the subject),
    /// then since, position and until.
    static func newestText(_ kind: EventKind, first: Int = 1) -> String {
        let subject = "$\(first)", since = "$\(first + 1)", position = "$\(first + 2)", until = "$\(first + 3)"
        let (table, time, condition): (String, String, String) =
            switch kind {
            case .phoneSends: ("code_sends", "sent_at", "phone = \(subject)")
            case .phoneCalls: ("code_sends", "sent_at", "phone = \(subject) AND channel = 'voice'")
            case .clientSends: ("code_sends", "sent_at", "client = \(subject)")
            case .exchangeSends: ("code_sends", "sent_at", "\(exchange) = \(subject)")
            case .phoneFailures: ("failed_checks", "failed_at", "phone = \(subject)")
            case .clientFailures: ("failed_checks", "failed_at", "client = \(subject)")
            case .clientSignIns: ("sign_in_starts", "started_at", "client = \(subject)")
            case .clientPasskeyChallenges: ("passkey_challenges", "created_at", "client = \(subject)")
            case .phoneRecoveryFailures: ("failed_recoveries", "failed_at", "phone = \(subject)")
            case .clientRecoveryFailures: ("failed_recoveries", "failed_at", "client = \(subject)")
            }
        return """
            SELECT \(time) AS at FROM \(table) WHERE \(condition) AND \(time) > \(since) AND \(time) <= \(until)
            ORDER BY \(time) DESC LIMIT 1 OFFSET \(position)
            """
    }

    static func newestSQL(_ kind: EventKind) -> SQL { SQL(newestText(kind)) }

    /// A window's four values, in the order ``newestText(_:first:)`` numbers them.
    static func arguments(_ window: RecentEvents) -> [SQLValue] {
        [.text(window.subject), .real(window.since), .integer(Int64(window.position)), .real(window.until)]
    }

    /// ``newestSQL(_:)`` for every kind, made once.
    static let newestByKind = Dictionary(uniqueKeysWithValues: EventKind.allCases.map { ($0, newestSQL($0)) })

    static func newest(_ events: RecentEvents) -> Step<Double?> {
        let sql = newestByKind[events.kind] ?? newestSQL(events.kind)
        return .rows(Statement(sql, arguments: arguments(events))) { rows in
            .done(try rows.first?.optional("at"))
        }
    }

    /// Several windows' n-th newest events in one row: each window's statement as a scalar
    /// subquery (`at0`, `at1`, …; none found is NULL), its values numbered after the ones before.
    static func newestTogether(_ kinds: [EventKind]) -> SQL {
        if let made = madeTogether.withLock({ $0[kinds] }) { return made }
        let columns = kinds.enumerated().map { index, kind in
            "(\(newestText(kind, first: 4 * index + 1))) AS at\(index)"
        }
        let sql = SQL("SELECT " + columns.joined(separator: ",\n"))
        madeTogether.withLock { $0[kinds] = sql }
        return sql
    }

    /// The statements ``newestTogether(_:)`` made, by their kinds in order: a handful, one per
    /// kind of request (made on the first of each, so the SQL is not rewritten per send).
    private static let madeTogether = Mutex<[[EventKind]: SQL]>([:])

    static func newest(_ windows: [RecentEvents]) -> Step<[AuthAnswer]> {
        guard windows.count > 1 else { return .all(windows.map { newest($0).map { .events(at: $0) } }) }
        return .rows(Statement(newestTogether(windows.map(\.kind)), arguments: windows.flatMap(arguments))) { rows in
            guard let row = rows.first else { throw StoredDataCorrupt("the limit windows' row was not returned") }
            return .done(try windows.indices.map { .events(at: try row.optional("at\($0)")) })
        }
    }

    /// What the sends to anyone in a window cost, and, only when that reaches `reaching` (the
    /// budget is full), the send at which the cost counted from the newest reaches it.
    ///
    /// The cost is read from `send_minutes` (migration v26: each minute's cost, kept by triggers)
    /// and made exact at the two edges: the window's first and last minutes are counted whole,
    /// less their sends outside the window, read through the time index. So a send reads at most
    /// a minute's sends and a window's minutes (60 for the hour, 1,440 for the day), not every
    /// send of the window: counting the sends themselves grew with the budget, 0.2 µs a send of
    /// the window per send on SQLite, and a budget of 100,000 texts a day walked 100,000 index
    /// entries twice under the one lock every send holds (docs/BENCHMARKS.md). SQLite counts an
    /// edge's sends on the time index alone plus what the few costing more than a text (calls)
    /// add, from their partial index; PostgreSQL's (time, cost) index holds both.
    ///
    /// An edge's sends are those of its minute as the triggers count them (the same division, so
    /// a send a hair before a minute's end is never counted in one place and taken from another);
    /// the bounds a second wider only let the time index find them.
    static let costTotal = SQL(
        sqlite: costTotal(minuteOf: "CAST(sent_at / 60 AS INTEGER)"), postgres: costTotal(minuteOf: "floor(sent_at / 60)"))

    private static func costTotal(minuteOf minute: String) -> String {
        """
        SELECT CAST(
            (SELECT coalesce(sum(spent), 0) FROM send_minutes WHERE minute >= $3 AND minute <= $4)
            - \(edgeCost("sent_at >= $5 AND sent_at <= $1 AND \(minute) = $3"))
            - \(edgeCost("sent_at > $2 AND sent_at < $6 AND \(minute) = $4"))
            AS BIGINT) AS total
        """
    }

    /// What the sends that meet `condition` cost: their count plus the extra of those costing more.
    private static func edgeCost(_ condition: String) -> String {
        """
        ((SELECT count(*) FROM code_sends WHERE \(condition))
            + (SELECT coalesce(sum(cost - 1), 0) FROM code_sends WHERE cost > 1 AND \(condition)))
        """
    }

    /// The send at which the window's cost, counted from the newest, reaches `reaching`: read
    /// only when the budget is full, so a walk over what the budget allows (or, after the budget
    /// was lowered, over the window). PostgreSQL walks the newest sends through the (time, cost)
    /// index and stops at `reaching` (every send costs at least 1); on SQLite a LIMITed subquery
    /// runs as a co-routine, 3.6 times the cost per row of the plain walk (50,000 sends: 1,376
    /// against 379 µs).
    static let costReached = SQL(
        sqlite: """
            SELECT max(sent_at) AS reached_at FROM (
                SELECT sent_at, sum(cost) OVER (ORDER BY sent_at DESC ROWS UNBOUNDED PRECEDING) AS running
                FROM code_sends WHERE sent_at > $1 AND sent_at <= $3) AS counted
            WHERE running >= $2
            """,
        postgres: """
            SELECT max(sent_at) FILTER (WHERE running >= $2) AS reached_at
            FROM (
                SELECT sent_at, sum(cost) OVER (ORDER BY sent_at DESC ROWS UNBOUNDED PRECEDING) AS running FROM (
                    SELECT sent_at, cost FROM code_sends WHERE sent_at > $1 AND sent_at <= $3
                    ORDER BY sent_at DESC LIMIT $2) AS newest) AS counted
            """)

    /// The minute (seconds since 1970 over 60, floored) `send_minutes` counts a send at `time` in;
    /// a time beyond any send's (infinite, or some 30 million years away) is held at a far minute.
    static func minute(_ time: Double) -> Int64 {
        let far = 1e15
        return Int64((max(-far, min(far, time.isNaN ? far : time)) / 60).rounded(.down))
    }

    static func cost(_ sends: AllSends) -> Step<SendCount> {
        let reached: [SQLValue] = [.real(sends.since), .integer(Int64(sends.reaching)), .real(sends.until)]
        let first = minute(sends.since), last = minute(sends.until)
        let counted: [SQLValue] = [
            .real(sends.since), .real(sends.until), .integer(first), .integer(last), .real(Double(first) * 60 - 1),
            .real(Double(last + 1) * 60 + 1),
        ]
        return .rows(Statement(costTotal, arguments: counted)) { rows in
            // A window that ends before it starts holds nothing (its edges are not its minutes').
            let total = max(0, try rows.first?.get("total") ?? 0)
            guard total >= sends.reaching else { return .done(SendCount(count: total, reachedAt: nil)) }
            return .rows(Statement(costReached, arguments: reached)) { rows in
                .done(SendCount(count: total, reachedAt: try rows.first?.optional("reached_at")))
            }
        }
    }

    /// A send's exchange: "+1", the area code and the exchange (`SignInRules.exchange(of:)`), as
    /// the index `code_sends_by_exchange` (migration v24) holds it, so a query naming it this way
    /// reads through that index.
    static let exchange = "substr(phone, 1, 8)"
    static let exchangeLength = 8

    /// The settled codes to an exchange's numbers (through `code_sends_by_exchange`, so only its
    /// own sends in the window are read): how many, how many used, and when the one at the
    /// asked position went.
    static let settledCodesInExchange = SQL(
        """
        SELECT count(*) AS sent, count(verified_at) AS verified, (
            SELECT sent_at FROM code_sends WHERE \(exchange) = $1 AND sent_at > $2 AND sent_at <= $3
            ORDER BY sent_at DESC LIMIT 1 OFFSET $4) AS at_position
        FROM code_sends WHERE \(exchange) = $1 AND sent_at > $2 AND sent_at <= $3
        """)

    /// The same for any other prefix ("+1": everyone, for the operators' health): a range of the
    /// phone index, up to the prefix followed by ':', the character after '9'.
    static let settledCodes = SQL(
        """
        SELECT count(*) AS sent, count(verified_at) AS verified, (
            SELECT sent_at FROM code_sends WHERE phone > $1 AND phone < $2 AND sent_at > $3 AND sent_at <= $4
            ORDER BY sent_at DESC LIMIT 1 OFFSET $5) AS at_position
        FROM code_sends WHERE phone > $1 AND phone < $2 AND sent_at > $3 AND sent_at <= $4
        """)

    static func settled(_ window: SettledCodes) -> Step<Conversion> {
        let statement =
            window.prefix.utf8.count == exchangeLength
            ? Statement(settledCodesInExchange, window.prefix, window.since, window.settledBy, window.position)
            : Statement(settledCodes, window.prefix, window.prefix + ":", window.since, window.settledBy, window.position)
        return .rows(statement) { rows in
            .done(
                Conversion(
                    sent: try rows.first?.get("sent") ?? 0, verified: try rows.first?.get("verified") ?? 0,
                    atPosition: try rows.first?.optional("at_position")))
        }
    }

    static let finalDeliveries = SQL(
        """
        SELECT count(*) FILTER (WHERE status = 'delivered') AS delivered,
               count(*) FILTER (WHERE status IN ('undelivered', 'failed')) AS not_delivered,
               count(*) FILTER (WHERE sent_at <= $2) AS settled,
               count(*) FILTER (WHERE sent_at <= $2 AND status NOT IN ('delivered', 'undelivered', 'failed')) AS unreported
        FROM code_sends WHERE sent_at > $1
        """)

    /// The sends since `since` whose status is final, and those sent by `settledBy`.
    static func deliveries(since: Double, settledBy: Double) -> Step<Deliveries> {
        .rows(Statement(finalDeliveries, since, settledBy)) { rows in
            .done(
                Deliveries(
                    delivered: try rows.first?.get("delivered") ?? 0,
                    notDelivered: try rows.first?.get("not_delivered") ?? 0,
                    settled: try rows.first?.get("settled") ?? 0, unreported: try rows.first?.get("unreported") ?? 0))
        }
    }
}
