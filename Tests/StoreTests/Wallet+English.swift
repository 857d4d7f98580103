import WalletCore

extension Wallet {
    /// Adds an account as an English page does: an unnamed one is "Account N".
    func addAccount(user: Int64, name: String?, key: OperationKey? = nil) async throws -> Receipt {
        try await addAccount(user: user, name: name, numbered: "Account {number}", key: key)
    }
}
