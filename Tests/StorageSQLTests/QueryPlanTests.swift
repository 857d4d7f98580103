import AuthCore
import GRDB
import SQLiteStorage
import Testing

@testable import StorageSQL

/// The reads every send makes go through the index that bounds them by their own subject's rows
/// in the window, not through the time index, which walks every send of the window (issue 42:
/// sign-ins slowed from 357 to 126 a second as 5,000 sends piled up, the exchange's two reads
/// taking 2–3 ms each). SQLite's planner chooses without statistics, so its choice is checked.
@Suite("Query plans of the sending reads (SQLite)")
struct QueryPlanTests {
    private func plan(_ sql: StorageSQL.SQL, windows: Int = 1) throws -> String {
        let queue = try DatabaseQueue()
        _ = try SQLiteDatabase(writer: queue)
        return try queue.read { db in
            // Each window takes four values ($1–$4, then $5–$8 …); their values do not change the plan.
            let values: [(any DatabaseValueConvertible)?] = (0..<windows).flatMap { _ in
                ["+1530221", 1.0, 2, 3.0] as [(any DatabaseValueConvertible)?]
            }
            return try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + sql.text(for: .sqlite), arguments: StatementArguments(values))
                .map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
        }
    }

    @Test("the windows a send reads in one statement keep each one's own index")
    func together() throws {
        // A call's send: its number's wrong codes, the client's sign-ins, then the number's sends
        // and calls, the client's and the exchange's sends (IssueReads' order).
        let kinds: [EventKind] = [.phoneFailures, .clientSignIns, .phoneSends, .phoneCalls, .clientSends, .exchangeSends]
        let plan = try plan(AuthReads.newestTogether(kinds), windows: kinds.count)
        for index in [
            "code_sends_by_phone", "code_sends_by_client", "code_sends_by_exchange", "sign_in_starts_by_client",
            "failed_checks_by_phone",
        ] {
            #expect(plan.contains(index), "\(index): \(plan)")
        }
        #expect(!plan.contains("code_sends_by_time"), "\(plan)")
    }

    @Test("an exchange's sends and its settled codes are read through code_sends_by_exchange")
    func exchange() throws {
        for sql in [AuthReads.newestByKind[.exchangeSends]!, AuthReads.settledCodesInExchange] {
            let plan = try plan(sql)
            #expect(plan.contains("code_sends_by_exchange"), "\(plan)")
            #expect(!plan.contains("code_sends_by_time"), "\(plan)")
        }
    }

    @Test("a number's and a client's sends are read through their own index")
    func phoneAndClient() throws {
        #expect(try plan(AuthReads.newestByKind[.phoneSends]!).contains("code_sends_by_phone"))
        #expect(try plan(AuthReads.newestByKind[.clientSends]!).contains("code_sends_by_client"))
    }
}
