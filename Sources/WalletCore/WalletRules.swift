import AuthCore
import Foundation

/// Every wallet rule, as pure functions: given what a transaction read (``WalletSnapshot``),
/// the writes and the receipt (``WalletDecision``), or the error to answer with. Stores only
/// read and write, so the rules are the same on SQLite and PostgreSQL and are tested without a
/// database (Tests/WalletCoreTests/WalletRulesTests.swift).
public enum WalletRules {
    /// The most accounts one person may hold: 100. Enough for anyone; without a limit every
    /// signed-in person could grow the database (and Home's page) without end.
    public static let maxAccountsPerPerson = 100

    /// What applying `change` needs to read.
    public static func reads(_ change: WalletChange, user: Int64, key: String?) -> WalletReads {
        var reads = WalletReads(user: user, key: key)
        switch change {
        case .setDisplayName: break
        case .addAccount(let name, _):
            reads.accountNames = name == nil
            reads.accountCount = true
        case .rename(let id, _), .delete(let id), .deposit(let id, _), .withdraw(let id, _): reads.accounts = [id]
        case .transfer(let from, let to, _): reads.accounts = [from, to]
        }
        return reads
    }

    /// Applies `change` to what was read: a key used before by the same request returns its
    /// receipt again and changes nothing, by another request it is refused; otherwise the
    /// balance rules decide, and the receipt is kept under the key with the request's fingerprint.
    public static func decide(_ change: WalletChange, key: OperationKey?, now: Date, given found: WalletSnapshot)
        throws -> WalletDecision
    {
        guard found.userExists else { throw WalletError.accountNotFound }
        if let replay = found.keyReceipt {
            // Keys stored before fingerprints were (none) replay as they always did.
            if let stored = found.keyFingerprint, stored != key?.fingerprint {
                throw WalletError.operationKeyReused
            }
            return WalletDecision(
                writes: [],
                receipt: ReceiptDraft(
                    action: replay.action, account: replay.accountID.map(WalletID.existing),
                    operation: replay.operationID.map(WalletID.existing), replayed: true))
        }
        func existing(_ id: Int64) throws -> Account {
            guard let account = found.accounts[id] else { throw WalletError.accountNotFound }
            return account
        }
        let at = now.timeIntervalSince1970
        var writes: [WalletWrite]
        var account: WalletID?
        var operation: WalletID?
        switch change {
        case .setDisplayName(let name):
            writes = [.setDisplayName(name)]
        case .addAccount(let typed, let numbered):
            // An unread count fails closed: a store (or a `reads` change) that forgot it must
            // not let a person grow past the limit.
            guard let count = found.accountCount else { throw StoredDataCorrupt("the account count was not read") }
            guard count < maxAccountsPerPerson else { throw WalletError.accountLimit }
            writes = [
                .insertAccount(
                    name: typed ?? firstFreeAccountName(taken: found.accountNames, numbered: numbered), at: at)
            ]
            account = .inserted
        case .rename(let id, let name):
            writes = [.renameAccount(id: try existing(id).id, name: name)]
            account = .existing(id)
        case .delete(let id):
            try checkDeletable(try existing(id))
            writes = [.deleteAccount(id: id)]
            account = .existing(id)
        case .deposit(let id, let amount):
            let before = try existing(id)
            writes = move(before, to: try deposit(amount, into: before), .deposit, amount, counterparty: nil, at: at)
            (account, operation) = (.existing(id), .inserted)
        case .withdraw(let id, let amount):
            let before = try existing(id)
            writes = move(
                before, to: try withdraw(amount, from: before), .withdrawal, amount, counterparty: nil, at: at)
            (account, operation) = (.existing(id), .inserted)
        case .transfer(let source, let target, let amount):
            let from = try existing(source)
            let to = try existing(target)
            let after = try transfer(amount, from: from, to: to)
            writes =
                move(from, to: after.source, .transferOut, amount, counterparty: target, at: at)
                + move(to, to: after.target, .transferIn, amount, counterparty: source, at: at)
            (account, operation) = (.existing(source), .inserted)
        }
        let receipt = ReceiptDraft(action: change.action, account: account, operation: operation, replayed: false)
        if let key { writes.append(.rememberKey(key: key, receipt: receipt, at: at)) }
        return WalletDecision(writes: writes, receipt: receipt)
    }

    /// A balance change and its history line.
    private static func move(
        _ account: Account, to after: Money, _ kind: Operation.Kind, _ amount: Money, counterparty: Int64?, at: Double
    ) -> [WalletWrite] {
        [
            .setBalance(account: account.id, from: account.balance, to: after),
            .insertOperation(
                OperationLine(
                    account: account.id, kind: kind, amount: amount, balanceAfter: after, counterparty: counterparty,
                    at: at)),
        ]
    }

    /// `numbered` ("Account {number}") with the first number whose name (case-insensitively) is
    /// not taken.
    public static func firstFreeAccountName(taken: some Sequence<String>, numbered: String) -> String {
        let taken = Set(taken.map { $0.lowercased() })
        func name(_ number: Int) -> String { numbered.replacingOccurrences(of: "{number}", with: String(number)) }
        var number = 1
        while taken.contains(name(number).lowercased()) { number += 1 }
        return name(number)
    }

    /// The balance after depositing `amount` (checked arithmetic: a stored balance at Int64's
    /// edge is refused, never a trap).
    public static func deposit(_ amount: Money, into account: Account) throws -> Money {
        guard amount > .zero else { throw WalletError.amount(.notPositive) }
        guard let after = account.balance.adding(amount), after <= Money.maxBalance else {
            throw WalletError.balanceLimit
        }
        return after
    }

    /// The balance after withdrawing `amount` (checked, like ``deposit(_:into:)``).
    public static func withdraw(_ amount: Money, from account: Account) throws -> Money {
        guard amount > .zero else { throw WalletError.amount(.notPositive) }
        guard amount <= account.balance, let after = account.balance.subtracting(amount) else {
            throw WalletError.insufficientFunds(balance: account.balance)
        }
        return after
    }

    /// The two balances after moving `amount` from `source` to `target`.
    public static func transfer(_ amount: Money, from source: Account, to target: Account) throws -> (
        source: Money, target: Money
    ) {
        (try withdraw(amount, from: source), try deposit(amount, into: target))
    }

    /// Only an empty account can be deleted.
    public static func checkDeletable(_ account: Account) throws {
        guard account.balance == .zero else { throw WalletError.accountNotEmpty(balance: account.balance) }
    }
}
