import Crypto
import Foundation

/// What a deletion reads: the account as it stands, inside the deleting transaction.
public struct DeletionSnapshot: Sendable, Equatable {
    public var user: Int64
    /// The account's number now; nil when the user no longer exists (deleted meanwhile).
    public var phone: String?
    public var createdAt: Double
    /// Its changes of number, oldest first.
    public var changes: [NumberChange]
    /// What the wallet accounts hold, in cents.
    public var moneyHeldCents: Int64

    public init(user: Int64, phone: String?, createdAt: Double, changes: [NumberChange], moneyHeldCents: Int64) {
        self.user = user
        self.phone = phone
        self.createdAt = createdAt
        self.changes = changes
        self.moneyHeldCents = moneyHeldCents
    }
}

/// What to delete: the user (and with it every row that belongs to them) and what the limits'
/// rows keep of the numbers they held while they held them.
public struct DeletionPlan: Sendable, Equatable {
    public var user: Int64
    /// The number the account holds now: its code and pending sign-ins go.
    public var phone: String
    /// Each number held, for when it was held, and what its rows of sends and failed codes keep
    /// instead of it (a keyed digest nobody can turn back into the number).
    public var forgotten: [(held: HeldNumber, as: String)]

    public static func == (lhs: DeletionPlan, rhs: DeletionPlan) -> Bool {
        lhs.user == rhs.user && lhs.phone == rhs.phone
            && lhs.forgotten.map(\.held) == rhs.forgotten.map(\.held) && lhs.forgotten.map(\.as) == rhs.forgotten.map(\.as)
    }
}

/// What a request to delete the account came to.
public enum DeletionDecision: Sendable, Equatable {
    case delete(DeletionPlan)
    /// The wallet still holds money: nothing is deleted (it is the person's; they withdraw it first).
    case moneyHeld(cents: Int64)
    /// The account is already gone.
    case noAccount
}
