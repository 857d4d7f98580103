import Crypto
import Encodings
import Foundation

/// The rules of the account over time: which numbers it held and when, and whether and how it
/// may be deleted. Pure: they decide from what a store read.
public struct AccountRules: Sendable {
    /// Keys the digest that replaces a deleted account's numbers in the limits' rows.
    let forgettingKey: SymmetricKey
    /// How long before an account got a number the code that proved it may have been sent (the
    /// code's lifetime): that code's send is the person's too.
    let codeLifetime: Double

    public init(forgettingKey: SymmetricKey, codeLifetime: Double) {
        self.forgettingKey = forgettingKey
        self.codeLifetime = codeLifetime
    }

    /// The numbers an account held, oldest first: the first from its creation, each next one
    /// from its change or its attachment. A send or a failed code to a number counts as the
    /// person's only while they held it (from `codeLifetime` before, for the code that proved
    /// it): before and after, and while the account was detached from any number, the number may
    /// be someone else's.
    public static func numbersHeld(
        now phone: String?, createdAt: Double, changes: [NumberChange], codeLifetime: Double
    ) -> [HeldNumber] {
        var held: [HeldNumber] = []
        let changes = changes.sorted { $0.at < $1.at }
        var current = changes.first.map(\.from) ?? phone
        var since = createdAt
        for change in changes {
            if let current {
                held.append(HeldNumber(phone: current, from: since, until: change.at, rowsFrom: since - codeLifetime))
            }
            current = change.to
            since = change.at
        }
        if let current {
            held.append(HeldNumber(phone: current, from: since, until: nil, rowsFrom: since - codeLifetime))
        }
        return held
    }

    /// `held`, its rows starting no earlier than `vacatedAt`, when the number's previous holder
    /// moved off it: a code sent to them a minute before is theirs, not this person's.
    public static func fenced(_ held: HeldNumber, vacatedAt: Double?) -> HeldNumber {
        guard let vacatedAt, vacatedAt > held.rowsFrom else { return held }
        var fenced = held
        // Strictly after: the text that told the previous holder of their change is theirs.
        fenced.rowsFrom = min(vacatedAt.nextUp, held.from)
        return fenced
    }

    /// Delete, unless the wallet holds money. Every row of the user goes; the limits' rows of
    /// sends and failed codes stay (the budget and the per-client limits count them until they
    /// expire) with the number replaced by a keyed digest.
    public func deletion(_ snapshot: DeletionSnapshot) -> DeletionDecision {
        guard let phone = snapshot.phone else { return .noAccount }
        guard snapshot.moneyHeldCents <= 0 else { return .moneyHeld(cents: snapshot.moneyHeldCents) }
        let held = Self.numbersHeld(
            now: phone, createdAt: snapshot.createdAt, changes: snapshot.changes, codeLifetime: codeLifetime)
        return .delete(
            DeletionPlan(user: snapshot.user, phone: phone, forgotten: held.map { ($0, forgotten($0.phone)) }))
    }

    /// What a limits' row keeps of a deleted account's number: `forgotten:` and 32 hex digits of
    /// HMAC-SHA256 under a key of this server, so the rows of one number still count together
    /// but nobody can test a guess at the number against them.
    public func forgotten(_ phone: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(phone.utf8), using: forgettingKey)
        return "forgotten:" + Data(mac).prefix(16).hexString
    }
}
