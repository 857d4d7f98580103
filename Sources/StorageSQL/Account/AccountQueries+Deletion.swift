import AccountCore
import AuthCore
import EventsCore
import Foundation

/// An account's deletion: what goes, what is kept detached, and the statements that do it.
extension AccountQueries {
    static let moneyHeld = SQL(
        "SELECT CAST(coalesce(sum(balance_cents), 0) AS BIGINT) AS held FROM accounts WHERE user_id = $1")
    static let forgetSends = SQL(
        """
        UPDATE code_sends SET phone = $1, provider_id = NULL
        WHERE phone = $2 AND sent_at >= $3 AND sent_at <= $4
        """)
    static let forgetFailures = SQL(
        "UPDATE failed_checks SET phone = $1 WHERE phone = $2 AND failed_at >= $3 AND failed_at <= $4")
    static let forgetRecoveryFailures = SQL(
        "UPDATE failed_recoveries SET phone = $1 WHERE phone = $2 AND failed_at >= $3 AND failed_at <= $4")
    /// A held number's events that were no account's (a stranger's wrong code, before the
    /// account existed) keep only the digest of the number, and neither browser nor network.
    static let forgetEvents = SQL(
        """
        UPDATE events SET phone = $1, user_agent = NULL, network = NULL
        WHERE phone = $2 AND user_id IS NULL AND at >= $3 AND at <= $4
        """)
    /// The person's own events go with them.
    static let deleteEvents = SQL("DELETE FROM events WHERE user_id = $1")
    static let deleteCode = SQL("DELETE FROM verifications WHERE phone = $1")
    static let deletePendingSessions = SQL("DELETE FROM sessions WHERE pending_phone = $1")
    /// Every other row of the person goes with it (`ON DELETE CASCADE`): sessions, remembered
    /// phones, passkeys and their challenges, consents, OpenID Connect grants (and their codes
    /// and refresh tokens), number changes, the wallet's profile, accounts, operations and keys.
    static let deleteUser = SQL("DELETE FROM users WHERE id = $1")

    /// The deletion: the user's row locked (a wallet change, which locks it first, runs before or
    /// after, never during), what `decide` needs read, and what it decided written.
    public static func delete(
        user: Int64, at now: Double, recording operatorEvent: Event? = nil,
        decide: @escaping @Sendable (DeletionSnapshot) -> DeletionDecision
    ) -> Step<DeletionDecision> {
        .rows(Statement(personLocked, user)) { rows in
            guard let row = rows.first else {
                return .done(decide(DeletionSnapshot(user: user, phone: nil, createdAt: 0, changes: [], moneyHeldCents: 0)))
            }
            let phone: String = try row.get("phone")
            let created: Double = try row.get("created_at")
            return changes(of: user).then { changes in
                .rows(Statement(moneyHeld, user)) { money in
                    let snapshot = DeletionSnapshot(
                        user: user, phone: phone, createdAt: created, changes: changes,
                        moneyHeldCents: try money.first?.get("held") ?? 0)
                    let decision = decide(snapshot)
                    guard case .delete(var plan) = decision else { return .done(decision) }
                    return fenced(plan.forgotten.map(\.held), of: user).then { held in
                        plan.forgotten = zip(held, plan.forgotten).map { ($0, $1.as) }
                        return OIDCQueries.apps(of: user).then { apps in
                            Step<Int>.execute(
                                statements(deleting: plan, at: now, apps: apps)
                                    + (operatorEvent.map { [EventQueries.insert($0)] } ?? [])
                            ).map { _ in .delete(plan) }
                        }
                    }
                }
            }
        }
    }

    /// - Parameter apps: the OpenID Connect clients the person used, named in the deletion's
    ///   event so that each (and only each) is told (Back-Channel Logout).
    static func statements(deleting plan: DeletionPlan, at now: Double, apps: [String]) -> [Statement] {
        plan.forgotten.flatMap { held, forgotten in
            let from = held.rowsFrom
            let until = held.until ?? openEnd
            return [
                Statement(forgetSends, forgotten, held.phone, from, until),
                Statement(forgetFailures, forgotten, held.phone, from, until),
                Statement(forgetRecoveryFailures, forgotten, held.phone, from, until),
                Statement(forgetEvents, forgotten, held.phone, from, until),
            ]
        } + [
            Statement(deleteCode, plan.phone),
            Statement(deletePendingSessions, plan.phone),
            Statement(deleteEvents, plan.user),
            Statement(deleteUser, plan.user),
            // What stays: that an account was deleted, when, and which apps were told (its id
            // names no one any more).
            EventQueries.insert(
                Event(
                    .accountDeleted, at: now, user: plan.user,
                    detail: apps.isEmpty ? nil : apps.joined(separator: " "))),
        ]
    }
}
