import AuthCore

/// What a changing operation did, kept with its one-time key: replaying the key returns the
/// same receipt (with `replayed` set) and changes nothing.
public struct Receipt: Sendable, Equatable {
    public enum Action: String, Sendable {
        case addAccount = "add_account"
        case deposit, withdraw, transfer, rename, delete
        case setName = "set_name"
    }

    public let action: Action
    /// The account acted on (the source of a transfer; the new account of addAccount).
    public let accountID: Int64?
    /// The history line written, for money operations.
    public let operationID: Int64?
    /// True when this is the first call's receipt, returned again for a repeated key.
    public var replayed = false
    /// The account acted on as the change left it, read in the change's own transaction (not
    /// kept with the key: a replay reads it anew); `nil` when it is gone or none was. An answer
    /// built from it needs no second read, which could fail after the change was committed and
    /// tell the client "unavailable, try again" about money that did move.
    public var account: Account?
    /// For ``Action/setName``: the person's chosen name as the change left it (or as it is, for
    /// a replay), read in the same transaction, for the same reason; `nil` when none is set.
    public var displayName: String?

    public init(
        action: Action, accountID: Int64?, operationID: Int64?, replayed: Bool = false, account: Account? = nil,
        displayName: String? = nil
    ) {
        self.action = action
        self.accountID = accountID
        self.operationID = operationID
        self.replayed = replayed
        self.account = account
        self.displayName = displayName
    }
}

extension Receipt.Action {
    /// An action read back from the database; one the code does not know is corrupt data.
    public init(stored: String) throws {
        guard let action = Self(rawValue: stored) else { throw StoredDataCorrupt("an unknown receipt action") }
        self = action
    }
}
