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

    public init(action: Action, accountID: Int64?, operationID: Int64?, replayed: Bool = false) {
        self.action = action
        self.accountID = accountID
        self.operationID = operationID
        self.replayed = replayed
    }
}

extension Receipt.Action {
    /// An action read back from the database; one the code does not know is corrupt data.
    public init(stored: String) throws {
        guard let action = Self(rawValue: stored) else { throw StoredDataCorrupt("an unknown receipt action") }
        self = action
    }
}
