import AuthCore
import Foundation
import Testing

@testable import WalletCore

/// The wallet decisions on hand-made snapshots: no database.
@Suite("Wallet rules, without a database")
struct WalletRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var at: Double { now.timeIntervalSince1970 }
    let checking = Account(id: 10, name: "Checking", balance: Money(cents: 5_000))
    let savings = Account(id: 11, name: "Savings", balance: Money(cents: 0))

    func found(_ accounts: [Account] = [], names: [String] = [], key: Receipt? = nil, fingerprint: Data? = nil)
        -> WalletSnapshot
    {
        WalletSnapshot(
            userExists: true, keyReceipt: key, keyFingerprint: fingerprint,
            accounts: Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, $0) }), accountNames: names,
            accountCount: accounts.count)
    }

    /// A one-time key sent with the request whose fingerprint is `request` repeated.
    func key(_ value: String = "key", request: UInt8 = 1) -> OperationKey {
        OperationKey(value, fingerprint: Data(repeating: request, count: 32))
    }

    func decide(_ change: WalletChange, _ found: WalletSnapshot, key: OperationKey? = nil) throws -> WalletDecision {
        try WalletRules.decide(change, key: key, now: now, given: found)
    }

    @Test("each change reads only what it needs")
    func reads() {
        #expect(WalletRules.reads(.addAccount(name: nil, numbered: "Account {number}"), user: 1, key: nil).accountNames)
        #expect(
            !WalletRules.reads(.addAccount(name: "Bills", numbered: "Account {number}"), user: 1, key: nil).accountNames
        )
        #expect(WalletRules.reads(.transfer(from: 10, to: 11, amount: .zero), user: 1, key: "k").accounts == [10, 11])
        #expect(WalletRules.reads(.transfer(from: 10, to: 11, amount: .zero), user: 1, key: "k").key == "k")
        #expect(WalletRules.reads(.setDisplayName("Ann"), user: 1, key: nil) == WalletReads(user: 1))
    }

    @Test("a deposit sets the balance it read and writes a history line; the key keeps the receipt")
    func deposit() throws {
        let decision = try decide(.deposit(account: 10, amount: Money(cents: 250)), found([checking]), key: key())
        let receipt = ReceiptDraft(action: .deposit, account: .existing(10), operation: .inserted, replayed: false)
        #expect(
            decision.writes == [
                .setBalance(account: 10, from: Money(cents: 5_000), to: Money(cents: 5_250)),
                .insertOperation(
                    OperationLine(
                        account: 10, kind: .deposit, amount: Money(cents: 250), balanceAfter: Money(cents: 5_250),
                        counterparty: nil, at: at)),
                .rememberKey(key: key(), receipt: receipt, at: at),
            ])
        #expect(decision.receipt == receipt)
    }

    @Test("a transfer moves both sides, the source's line first")
    func transfer() throws {
        let decision = try decide(.transfer(from: 10, to: 11, amount: Money(cents: 1_000)), found([checking, savings]))
        #expect(
            decision.writes.prefix(3) == [
                .setBalance(account: 10, from: Money(cents: 5_000), to: Money(cents: 4_000)),
                .insertOperation(
                    OperationLine(
                        account: 10, kind: .transferOut, amount: Money(cents: 1_000),
                        balanceAfter: Money(cents: 4_000), counterparty: 11, at: at)),
                .setBalance(account: 11, from: .zero, to: Money(cents: 1_000)),
            ])
        #expect(decision.writes.count == 4)
    }

    @Test(
        "what is refused, and why; nothing is written",
        arguments: [
            (
                WalletChange.withdraw(account: 10, amount: Money(cents: 5_001)),
                WalletError.insufficientFunds(balance: Money(cents: 5_000))
            ),
            (.deposit(account: 10, amount: Money(cents: Money.maxBalance.cents - 4_999)), .balanceLimit),
            (.delete(account: 10), .accountNotEmpty(balance: Money(cents: 5_000))),
            (.deposit(account: 12, amount: Money(cents: 1)), .accountNotFound),
            (.transfer(from: 10, to: 12, amount: Money(cents: 1)), .accountNotFound),
            (.rename(account: 12, name: "x"), .accountNotFound),
        ])
    func refused(change: WalletChange, error: WalletError) {
        #expect(throws: error) { try decide(change, found([checking, savings])) }
    }

    @Test("a person who does not exist has no accounts")
    func noUser() {
        #expect(throws: WalletError.accountNotFound) {
            try WalletRules.decide(.setDisplayName("Ann"), key: nil, now: now, given: WalletSnapshot(userExists: false))
        }
    }

    @Test("a key used before by the same request returns its receipt, replayed, and writes nothing")
    func replay() throws {
        let first = Receipt(action: .deposit, accountID: 10, operationID: 99)
        let replayed = ReceiptDraft(action: .deposit, account: .existing(10), operation: .existing(99), replayed: true)
        let decision = try decide(
            .deposit(account: 10, amount: Money(cents: 1)),
            found([checking], key: first, fingerprint: key().fingerprint), key: key())
        #expect(decision.writes.isEmpty)
        #expect(decision.receipt == replayed)
        // A key stored before fingerprints were replays as it always did.
        #expect(
            try decide(.deposit(account: 10, amount: Money(cents: 1)), found([checking], key: first), key: key())
                .receipt == replayed)
    }

    @Test("a key used before by another request is refused, whatever the change, and writes nothing")
    func keyReused() {
        let first = found(
            [checking, savings], key: Receipt(action: .deposit, accountID: 10, operationID: 99),
            fingerprint: key(request: 1).fingerprint)
        for change in [
            WalletChange.withdraw(account: 10, amount: Money(cents: 1)), .deposit(account: 10, amount: Money(cents: 2)),
            .transfer(from: 10, to: 11, amount: Money(cents: 1)), .delete(account: 11),
        ] {
            #expect(throws: WalletError.operationKeyReused, "\(change)") {
                try decide(change, first, key: key(request: 2))
            }
        }
    }

    @Test("a person with 100 accounts cannot add another; only adding counts them")
    func accountLimit() throws {
        #expect(
            WalletRules.reads(.addAccount(name: "Bills", numbered: "Account {number}"), user: 1, key: nil).accountCount)
        #expect(!WalletRules.reads(.deposit(account: 10, amount: Money(cents: 1)), user: 1, key: nil).accountCount)
        var full = found()
        full.accountCount = 100
        #expect(throws: WalletError.accountLimit) {
            try decide(.addAccount(name: "Bills", numbered: "Account {number}"), full)
        }
        #expect(throws: WalletError.accountLimit) {
            try decide(.addAccount(name: nil, numbered: "Account {number}"), full)
        }
        full.accountCount = 99
        #expect(
            try decide(.addAccount(name: "Bills", numbered: "Account {number}"), full).writes == [
                .insertAccount(name: "Bills", at: at)
            ])
        // A count that was not read is not "none": the request fails instead of passing the limit.
        full.accountCount = nil
        #expect(throws: StoredDataCorrupt.self) {
            try decide(.addAccount(name: "Bills", numbered: "Account {number}"), full)
        }
    }

    @Test("amounts and stored balances at Int64's edges are typed errors, never a trap")
    func edges() {
        let huge = Account(id: 20, name: "Corrupt", balance: Money(cents: .max))
        let negative = Account(id: 21, name: "Negative", balance: Money(cents: .min))
        #expect(throws: WalletError.amount(.notPositive)) {
            try WalletRules.deposit(Money(cents: .min), into: checking)
        }
        #expect(throws: WalletError.amount(.notPositive)) { try WalletRules.withdraw(Money(cents: .min), from: huge) }
        #expect(throws: WalletError.balanceLimit) { try WalletRules.deposit(Money(cents: 1), into: huge) }
        #expect(throws: WalletError.insufficientFunds(balance: negative.balance)) {
            try WalletRules.withdraw(Money(cents: 1), from: negative)
        }
        #expect(throws: WalletError.balanceLimit) {
            try WalletRules.transfer(Money(cents: 1), from: checking, to: huge)
        }
        #expect(Money(cents: .max).adding(Money(cents: 1)) == nil)
        #expect(Money(cents: .min).subtracting(Money(cents: 1)) == nil)
        #expect(Money(cents: 2).subtracting(Money(cents: 3)) == Money(cents: -1))
    }

    @Test("a total of stored balances that does not fit is StoredDataCorrupt for that request, not a trap")
    func totalOverflow() throws {
        let half = Money(cents: Int64.max / 2 + 1)
        let overview = Overview(
            displayName: "Ann",
            accounts: [Account(id: 1, name: "A", balance: half), Account(id: 2, name: "B", balance: half)])
        #expect(throws: StoredDataCorrupt.self) { try overview.total }
        #expect(try Overview(displayName: "Ann", accounts: [checking, savings]).total == Money(cents: 5_000))
    }

    @Test("a new account takes the first free 'Account N', case-insensitively")
    func defaultName() throws {
        let decision = try decide(
            .addAccount(name: nil, numbered: "Account {number}"), found(names: ["account 1", "Account 3"]))
        #expect(decision.writes == [.insertAccount(name: "Account 2", at: at)])
        #expect(decision.receipt.account == .inserted)
    }

    @Test("inserted ids resolve a receipt; a receipt for a row never inserted is corrupt, not a crash")
    func resolve() throws {
        var ids = InsertedIDs()
        ids.note(nil, for: .setDisplayName("x"))
        ids.note(
            41,
            for: .insertOperation(
                OperationLine(account: 1, kind: .deposit, amount: .zero, balanceAfter: .zero, counterparty: nil, at: 0))
        )
        ids.note(
            42,
            for: .insertOperation(
                OperationLine(account: 1, kind: .deposit, amount: .zero, balanceAfter: .zero, counterparty: nil, at: 0))
        )
        let draft = ReceiptDraft(action: .transfer, account: .existing(1), operation: .inserted, replayed: false)
        #expect(try ids.resolve(draft) == Receipt(action: .transfer, accountID: 1, operationID: 41))
        #expect(throws: StoredDataCorrupt.self) {
            try ids.resolve(ReceiptDraft(action: .addAccount, account: .inserted, operation: nil, replayed: false))
        }
    }

    @Test("values the code does not know, read back from the database, are typed errors")
    func corrupt() {
        #expect(throws: StoredDataCorrupt.self) { try Operation.Kind(stored: "refund") }
        #expect(throws: StoredDataCorrupt.self) { try Receipt.Action(stored: "launch") }
    }
}
