import AuthCore
import EventsCore
import Foundation

/// The purge of what has expired (``AuthChanges``).
extension AuthChanges {
    /// Deletes what ``AuthCore/PurgeCutoffs`` says is old; the result is how many rows went.
    public static func purge(_ cutoffs: PurgeCutoffs) -> Step<Purged> {
        EventQueries.expireSessions(by: cutoffs.sessionsExpiredBy).then { expired in
            Step<Int>.execute(rest(of: cutoffs)).map {
                Purged(rows: expired.sessions + $0, sessionsEnded: expired.ended)
            }
        }
    }

    static func rest(of cutoffs: PurgeCutoffs) -> [Statement] {
        [
            Statement(SQL("DELETE FROM events WHERE at <= $1"), cutoffs.eventsBefore),
            Statement(SQL("DELETE FROM devices WHERE expires_at <= $1"), cutoffs.sessionsExpiredBy),
            Statement(SQL("DELETE FROM verifications WHERE expires_at <= $1"), cutoffs.codesExpiredBy),
            Statement(SQL("DELETE FROM code_sends WHERE sent_at <= $1"), cutoffs.sendsBefore),
            Statement(SQL("DELETE FROM failed_checks WHERE failed_at <= $1"), cutoffs.failuresBefore),
            Statement(SQL("DELETE FROM sign_in_starts WHERE started_at <= $1"), cutoffs.signInStartsBefore),
            Statement(SQL("DELETE FROM failed_recoveries WHERE failed_at <= $1"), cutoffs.recoveryFailuresBefore),
            Statement(SQL("DELETE FROM passkey_challenges WHERE expires_at <= $1"), cutoffs.sessionsExpiredBy),
        ]
    }
}
