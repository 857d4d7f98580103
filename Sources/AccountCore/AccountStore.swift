import EventsCore
import Foundation

/// Where the person's account is read whole and deleted whole: the account page's facts, the
/// download of everything kept about them, and the deletion. (Not a wallet account: those are
/// WalletCore's; this is the sign-in account a phone number holds.)
///
/// A store decides nothing: it reads what ``AccountRules`` need, in one transaction, and writes
/// what they decided.
public protocol AccountStore: Sendable {
    /// The account that holds `phone` (E.164) now; nil when none does.
    func account(holding phone: String) async throws -> Int64?

    /// The accounts detached from `phone` (E.164: its new holder started afresh), newest first.
    func detachedAccounts(from phone: String) async throws -> [DetachedAccountSummary]

    /// The account page's facts; nil when the user no longer exists.
    func summary(user: Int64, now: Double) async throws -> AccountSummary?

    /// Everything kept about the user, as of `now`; nil when the user no longer exists.
    func export(user: Int64, now: Double) async throws -> AccountExport?

    /// Reads the user's row (locked), numbers and money held, passes them to `decide`, and when
    /// it decides ``DeletionDecision/delete(_:)`` removes every personal row in the same
    /// transaction (its events too), and notes the deletion `at` then, with `operatorEvent` when
    /// an operator deleted it.
    func delete(
        user: Int64, at: Double, recording operatorEvent: Event?,
        decide: @escaping @Sendable (DeletionSnapshot) -> DeletionDecision
    ) async throws -> DeletionDecision

    /// Replaces the user's recovery codes by `digests` (``RecoveryCodes``), in one transaction:
    /// the old set ends as the new one begins.
    func replaceRecoveryCodes(user: Int64, digests: [Data], at: Double) async throws
}

extension AccountStore {
    /// The person's own deletion (no operator's event).
    public func delete(user: Int64, at: Double, decide: @escaping @Sendable (DeletionSnapshot) -> DeletionDecision)
        async throws -> DeletionDecision
    {
        try await delete(user: user, at: at, recording: nil, decide: decide)
    }
}

/// An account detached from a number (``AccountStore/detachedAccounts(from:)``).
public struct DetachedAccountSummary: Sendable, Equatable {
    public var user: Int64
    public var createdAt: Double
    public var detachedAt: Double

    public init(user: Int64, createdAt: Double, detachedAt: Double) {
        self.user = user
        self.createdAt = createdAt
        self.detachedAt = detachedAt
    }
}

/// The account page: the number, since when, and how the person signs in.
public struct AccountSummary: Sendable, Equatable {
    public var phone: String
    /// When the account was made (its first sign-in).
    public var createdAt: Double
    /// When it moved to `phone`, if it ever moved; `createdAt` otherwise.
    public var phoneSince: Double
    public var passkeys: Int
    /// Live remembered phones ("Remember this phone").
    public var rememberedPhones: Int
    /// Apps the person allowed to sign them in (OpenID Connect consents).
    public var connectedApps: Int
    /// What the wallet accounts hold, in cents.
    public var moneyHeldCents: Int64
    /// Recovery codes not used yet.
    public var recoveryCodesLeft: Int
    /// When the current set of recovery codes was made; nil when there is none.
    public var recoveryCodesMadeAt: Double? = nil

    public init(
        phone: String, createdAt: Double, phoneSince: Double, passkeys: Int, rememberedPhones: Int,
        connectedApps: Int, moneyHeldCents: Int64, recoveryCodesLeft: Int = 0
    ) {
        self.recoveryCodesLeft = recoveryCodesLeft
        self.phone = phone
        self.createdAt = createdAt
        self.phoneSince = phoneSince
        self.passkeys = passkeys
        self.rememberedPhones = rememberedPhones
        self.connectedApps = connectedApps
        self.moneyHeldCents = moneyHeldCents
    }
}

/// A number the account held, from when until when (`until` nil: it holds it now). Seconds
/// since 1970.
public struct HeldNumber: Sendable, Equatable {
    public var phone: String
    public var from: Double
    public var until: Double?
    /// Where the rows of sends and failed codes to the number start being the person's: a code's
    /// lifetime before `from`, for the code that proved the number.
    public var rowsFrom: Double

    public init(phone: String, from: Double, until: Double?, rowsFrom: Double? = nil) {
        self.phone = phone
        self.from = from
        self.until = until
        self.rowsFrom = rowsFrom ?? from
    }
}

/// One change of number, as kept. `to` nil: the account was detached from `from` (its number's
/// new holder started afresh); `from` nil: a detached account attached to `to`. Between the
/// two the account held no number, and nothing sent to one then was the person's.
public struct NumberChange: Sendable, Equatable {
    public var from: String?
    public var to: String?
    public var at: Double

    public init(from: String?, to: String?, at: Double) {
        self.from = from
        self.to = to
        self.at = at
    }
}
