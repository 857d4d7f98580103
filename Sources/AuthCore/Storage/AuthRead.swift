import DeliveryCore
import Foundation

/// One thing a sign-in decision reads. A store answers each with one plain statement, in the
/// order given, and knows no limit or window itself; the rules name what to read through a
/// ``ReadList``, which pairs each read with the typed value the decision gets from its answer.
public enum AuthRead: Sendable, Equatable {
    /// The session with this storage key (with its user's phone when signed in).
    case session(key: Data)
    /// The code stored for this phone number (E.164), with its send.
    case code(phone: String)
    /// The code held by this holder (the digest of the API's `verification_id`), whatever its
    /// number, with its send.
    case heldCode(holder: Data)
    /// The remembered device with this storage key (the SHA-256 of its cookie's token).
    case device(key: Data)
    /// Every live session and remembered device of a user ("Your devices").
    case signedInPlaces(PlacesRead)
    /// The text or call with this reference, with its delivery.
    case send(SendReference)
    /// The time of the n-th newest event of a kind for a subject since a time: a sliding-window
    /// limit.
    case events(RecentEvents)
    /// What the texts and calls to anyone since a time cost (the spend budget).
    case cost(AllSends)
    /// Settled codes to the numbers with a prefix: how many, how many used.
    case settledCodes(SettledCodes)
    /// The sends since a time (seconds since 1970) whose status is final: delivered, or not; and
    /// those sent by `settledBy`, with how many of them have no final status.
    case deliveries(since: Double, settledBy: Double)
    /// The passkey challenge stored under this key (``PasskeyChallenge/key(owner:challenge:)``).
    case passkeyChallenge(key: Data)
    /// The passkey with this credential id (with its user's phone and handle).
    case passkey(credentialID: Data)
    /// A user's passkeys, handle and answer to the offer.
    case userPasskeys(user: Int64)
    /// For a change of number: the user's number now, and which user holds `phone`.
    case numberOwners(user: Int64, phone: String)
    /// For "Lost your phone or number?": the account on `phone` (or, detached, once on it), and
    /// whether `digest` is one of its recovery codes not used yet; with `account`, that account
    /// only ("Is this your account?").
    case recoveryCode(phone: String, digest: Data, account: Int64? = nil)
    /// For the recycled-number guard: the account on `phone`, when its number last proved itself,
    /// whether `device` (a remembered phone's key) is one of its live remembered phones, and
    /// whether it has a way back in without the number.
    case dormancy(phone: String, device: Data?, now: Double)
    /// The number a user's account is on, or was detached from; nil when there is no such user.
    case accountNumber(user: Int64)
    /// How the provider has been doing on a channel (the provider's breaker).
    case providerHealth(DeliveryChannel)
}

/// What ``AuthRead/accountNumber(user:)`` found.
public struct AccountNumber: Sendable, Equatable {
    /// The number the account is on; nil when it is detached.
    public var phone: String?
    /// The number it was detached from.
    public var detachedFrom: String?
    /// Its recovery codes not used yet.
    public var unusedRecoveryCodes: Int

    public init(phone: String?, detachedFrom: String?, unusedRecoveryCodes: Int = 0) {
        self.phone = phone
        self.detachedFrom = detachedFrom
        self.unusedRecoveryCodes = unusedRecoveryCodes
    }
}

/// What ``AuthRead/dormancy(phone:device:now:)`` found: the account on the number.
public struct Dormancy: Sendable, Equatable {
    public var user: Int64
    /// When the number last signed in with a code (or the account moved onto it).
    public var numberProvedAt: Double
    /// The browser asking is one of the account's live remembered phones.
    public var rememberedHere: Bool
    /// What can prove the account is the asker's.
    public var waysBack: WaysBack

    public init(user: Int64, numberProvedAt: Double, rememberedHere: Bool, waysBack: WaysBack) {
        self.user = user
        self.numberProvedAt = numberProvedAt
        self.rememberedHere = rememberedHere
        self.waysBack = waysBack
    }
}

/// What can prove an account is its owner's without its number: a passkey that still signs in,
/// an unused recovery code.
public struct WaysBack: Sendable, Equatable {
    public var passkey: Bool
    public var recoveryCode: Bool

    public init(passkey: Bool, recoveryCode: Bool) {
        self.passkey = passkey
        self.recoveryCode = recoveryCode
    }
}

/// What ``AuthRead/recoveryCode(phone:digest:account:)`` found.
public struct RecoveryCodeMatch: Sendable, Equatable {
    /// The account on the number; nil when the number has none.
    public var user: Int64?
    /// Whether the digest is an unused recovery code of that account.
    public var matches: Bool
    /// The account's recovery codes not used yet (before this one is spent).
    public var unused: Int
    /// The digest of the number's last wrong try (``SignInRules/recoveryTry(_:phone:)``).
    public var lastWrongTry: Data?
    /// The account's number (E.164; nil when detached from it) and the number it was detached
    /// from: what a proof is bound to, read here so the proof needs no read after the commit.
    public var phone: String?
    public var detachedFrom: String?

    public init(
        user: Int64?, matches: Bool, unused: Int, lastWrongTry: Data? = nil, phone: String? = nil,
        detachedFrom: String? = nil
    ) {
        self.lastWrongTry = lastWrongTry
        self.phone = phone
        self.detachedFrom = detachedFrom
        self.user = user
        self.matches = matches
        self.unused = unused
    }
}

/// What ``AuthRead/numberOwners(user:phone:)`` found.
public struct NumberOwners: Sendable, Equatable {
    /// The user's number now; nil when the user no longer exists.
    public var accountPhone: String?
    /// The user whose number `phone` is, if any.
    public var phoneHolder: Int64?
    /// The user exists and is detached from any number ("This number is new to me").
    public var accountDetached: Bool

    public init(accountPhone: String?, phoneHolder: Int64?, accountDetached: Bool = false) {
        self.accountPhone = accountPhone
        self.phoneHolder = phoneHolder
        self.accountDetached = accountDetached
    }
}

/// What a store found for one ``AuthRead``, of the same case; times are seconds since 1970.
public enum AuthAnswer: Sendable, Equatable {
    case session(SessionRecord?)
    case code(StoredCode?)
    case heldCode(HeldCode?)
    case device(DeviceRecord?)
    case signedInPlaces(SignedInPlaces)
    case send(SendRecord?)
    /// The time of the event at the asked position; `nil` when there are fewer events.
    case events(at: Double?)
    case cost(SendCount)
    case settledCodes(Conversion)
    case deliveries(Deliveries)
    case passkeyChallenge(PasskeyChallenge?)
    case passkey(PasskeyRecord?)
    case userPasskeys(UserPasskeys)
    case numberOwners(NumberOwners)
    case recoveryCode(RecoveryCodeMatch)
    case dormancy(Dormancy?)
    case accountNumber(AccountNumber?)
    case providerHealth(ProviderHealth)
}

/// A lock a transaction holds until it ends.
public enum AuthLock: Sendable, Equatable {
    case phone(String)
    case client(String)
    /// Every send: the budget is one count shared by all numbers and clients, so sends run one
    /// after another (each transaction is a few statements; the text goes out after it).
    case allSends
    /// One text or call's delivery: two reports of it are decided one after the other.
    case send(SendReference)
    /// A passkey challenge's owner, or a passkey's credential id: two answers to one challenge,
    /// or two sign-ins with one passkey, are decided one after the other.
    case passkey(Data)
}
