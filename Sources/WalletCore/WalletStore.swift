import AuthCore
import Foundation

/// Where wallets are kept: SQLite (the SQLiteStorage module) or PostgreSQL (PostgresStorage).
///
/// A store decides nothing: a change reads what a ``WalletReads`` names, hands it to
/// ``WalletRules`` and writes the ``WalletWrite``s they return, in one transaction. A person's
/// changes run one at a time (SQLite: one writer; PostgreSQL: the person's row locked first),
/// so the balance checks see the balances they change, on however many app instances.
public protocol WalletStore: Sendable {
    /// The person's chosen name (`nil` until set) and accounts, oldest first.
    func overview(user: Int64) async throws -> StoredOverview
    /// Home's one read: the session with this storage key and, when it belongs to a user, that
    /// user's overview, in one round trip to the database.
    func sessionAndOverview(session key: Data) async throws -> (session: SessionRecord?, overview: StoredOverview?)
    /// One of the person's accounts; `nil` for someone else's or none.
    func account(user: Int64, id: Int64) async throws -> Account?
    /// The account's operations, newest first; `nil` for someone else's account or none.
    func history(user: Int64, account: Int64, limit: Int) async throws -> [Operation]?
    /// Reads `reads`, passes them to `decide` and applies the writes it returns, in one
    /// transaction; returns the receipt with the ids the database assigned and the account acted
    /// on as the transaction left it.
    func transaction(
        reading reads: WalletReads, decide: @escaping @Sendable (WalletSnapshot) throws -> WalletDecision
    ) async throws -> Receipt
    /// Forgets one-time keys stored before `cutoff` (seconds since 1970); returns how many.
    func purgeKeys(before cutoff: Double) async throws -> Int
}

/// The person's name and accounts as stored.
public struct StoredOverview: Sendable, Equatable {
    public var displayName: String?
    public var accounts: [Account]
    /// Whether the person has a way back in without their number (a passkey, or a recovery code
    /// not used yet): Home offers recovery codes when not.
    public var hasWayBack: Bool

    public init(displayName: String?, accounts: [Account], hasWayBack: Bool = true) {
        self.displayName = displayName
        self.accounts = accounts
        self.hasWayBack = hasWayBack
    }
}

/// What a wallet change needs to read, named by ``WalletRules``.
public struct WalletReads: Sendable, Equatable {
    /// Whose wallet (locked for the transaction on PostgreSQL).
    public var user: Int64
    /// A one-time key to look up: a receipt stored with it means the change already happened.
    public var key: String?
    /// The person's accounts to read (with their balances).
    public var accounts: [Int64]
    /// Whether to read the names of all the person's accounts (to pick "Account N").
    public var accountNames: Bool
    /// Whether to count the person's accounts (for the limit on how many they may have).
    public var accountCount: Bool

    public init(
        user: Int64, key: String? = nil, accounts: [Int64] = [], accountNames: Bool = false, accountCount: Bool = false
    ) {
        self.user = user
        self.key = key
        self.accounts = accounts
        self.accountNames = accountNames
        self.accountCount = accountCount
    }
}

/// What a store found for a ``WalletReads``.
public struct WalletSnapshot: Sendable, Equatable {
    /// Whether the person exists at all.
    public var userExists: Bool
    /// The receipt stored with the key, if the key was used before.
    public var keyReceipt: Receipt?
    /// The fingerprint of the request the key was first used with; `nil` for a key stored
    /// before fingerprints were.
    public var keyFingerprint: Data?
    /// Those of the asked accounts that are the person's, by id.
    public var accounts: [Int64: Account]
    public var accountNames: [String]
    /// How many accounts the person has; `nil` when not read, which the account limit refuses
    /// rather than reading as none.
    public var accountCount: Int?

    public init(
        userExists: Bool, keyReceipt: Receipt? = nil, keyFingerprint: Data? = nil, accounts: [Int64: Account] = [:],
        accountNames: [String] = [], accountCount: Int? = nil
    ) {
        self.accountCount = accountCount
        self.userExists = userExists
        self.keyReceipt = keyReceipt
        self.keyFingerprint = keyFingerprint
        self.accounts = accounts
        self.accountNames = accountNames
    }
}

/// An id a write may refer to before the database has assigned it.
public enum WalletID: Sendable, Equatable {
    case existing(Int64)
    /// The id of the row this decision's insert of that kind wrote (the first, for operations).
    case inserted
}

/// One write a wallet decision asks for; a store turns each into one statement. Times are
/// seconds since 1970.
public enum WalletWrite: Sendable, Equatable {
    case setDisplayName(String)
    /// Yields the new account's id.
    case insertAccount(name: String, at: Double)
    case renameAccount(id: Int64, name: String)
    case deleteAccount(id: Int64)
    /// Sets the balance, only if it is still `from` (the store reports anything else as corrupt).
    case setBalance(account: Int64, from: Money, to: Money)
    /// A line of history; yields its id.
    case insertOperation(OperationLine)
    /// Keeps the receipt under the one-time key, with the request's fingerprint, in the same
    /// transaction as the change.
    case rememberKey(key: OperationKey, receipt: ReceiptDraft, at: Double)
}

/// A history line to write.
public struct OperationLine: Sendable, Equatable {
    public var account: Int64
    public var kind: Operation.Kind
    public var amount: Money
    public var balanceAfter: Money
    public var counterparty: Int64?
    public var at: Double
}

/// A receipt whose ids may still be ``WalletID/inserted``.
public struct ReceiptDraft: Sendable, Equatable {
    public var action: Receipt.Action
    public var account: WalletID?
    public var operation: WalletID?
    public var replayed: Bool
}

/// What a wallet decision returns: the writes, then the receipt.
public struct WalletDecision: Sendable, Equatable {
    public var writes: [WalletWrite]
    public var receipt: ReceiptDraft
}

/// The ids a store's writes were given, in order, to resolve a ``ReceiptDraft``: every store
/// applies a decision the same way through this.
public struct InsertedIDs: Sendable {
    private var account: Int64?
    private var operation: Int64?

    public init() {}

    /// Notes the id `write` was given (for inserts).
    public mutating func note(_ id: Int64?, for write: WalletWrite) {
        switch write {
        case .insertAccount: account = account ?? id
        case .insertOperation: operation = operation ?? id
        default: break
        }
    }

    /// The receipt with every id known.
    public func resolve(_ draft: ReceiptDraft) throws -> Receipt {
        Receipt(
            action: draft.action, accountID: try resolve(draft.account, inserted: account),
            operationID: try resolve(draft.operation, inserted: operation), replayed: draft.replayed)
    }

    private func resolve(_ id: WalletID?, inserted: Int64?) throws -> Int64? {
        switch id {
        case nil: return nil
        case .existing(let id): return id
        case .inserted:
            guard let inserted else { throw StoredDataCorrupt("a receipt for a row that was not inserted") }
            return inserted
        }
    }
}
