import AuthCore
import Foundation
import Testing

@testable import WalletCore

/// A wallet on a fresh database of one backend, with two people in it.
struct WalletFixture {
    let database: TestDatabase
    let wallet: Wallet
    let alice: Int64
    let bob: Int64

    init(_ database: TestDatabase, clock: @escaping @Sendable () -> Date = { Date() }) async throws {
        self.database = database
        var ids: [Int64] = []
        for phone in ["+15305550123", "+14155550199"] {
            try await database.execute(
                "INSERT INTO users (phone, created_at, last_sign_in_at, number_proved_at) VALUES ('\(phone)', 0, 0, 0)")
            ids.append(Int64(try #require(try await database.integer("SELECT id FROM users WHERE phone = '\(phone)'"))))
        }
        (alice, bob) = (ids[0], ids[1])
        wallet = Wallet(store: database.wallet, clock: clock)
    }

    func newAccount(_ user: Int64, _ name: String? = nil) async throws -> Int64 {
        try await wallet.addAccount(user: user, name: name).accountID!
    }
}

@Suite("Wallet")
struct WalletTests {
    func dollars(_ text: String) -> Money { try! Money(parsing: text) }

    @Test("accounts get unique default names; the name defaults to the phone", arguments: Backend.all)
    func accounts(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let empty = try await f.wallet.overview(user: f.alice, defaultName: "(530) 555-0123")
            var expected = Overview(displayName: "(530) 555-0123", accounts: [])
            expected.hasWayBack = false  // neither a passkey nor a recovery code: Home offers codes
            #expect(empty == expected)
            let first = try await f.newAccount(f.alice)
            let second = try await f.newAccount(f.alice)
            _ = try await f.newAccount(f.alice, "Savings")
            _ = try await f.wallet.rename(user: f.alice, account: first, to: "Checking")
            _ = try await f.newAccount(f.alice)  // "Account 1" is free again
            let names = try await f.wallet.overview(user: f.alice, defaultName: "").accounts.map(\.name)
            #expect(names == ["Checking", "Account 2", "Savings", "Account 1"])
            await #expect(throws: WalletError.accountNameTaken) {
                try await f.wallet.addAccount(user: f.alice, name: "savings")
            }
            await #expect(throws: WalletError.accountNameTaken) {
                try await f.wallet.rename(user: f.alice, account: second, to: "Checking")
            }
            await #expect(throws: WalletError.invalidAccountName) {
                try await f.wallet.addAccount(user: f.alice, name: String(repeating: "x", count: 41))
            }
            _ = try await f.wallet.setDisplayName(user: f.alice, to: "  Alice  ")
            #expect(try await f.wallet.overview(user: f.alice, defaultName: "").displayName == "Alice")
            await #expect(throws: WalletError.invalidDisplayName) {
                try await f.wallet.setDisplayName(user: f.alice, to: " ")
            }
            // Bob's wallet is his own.
            #expect(try await f.wallet.overview(user: f.bob, defaultName: "Bob").accounts.isEmpty)
        }
    }

    @Test("deposit, withdraw, transfer, history newest first, delete only when empty", arguments: Backend.all)
    func money(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let checking = try await f.newAccount(f.alice, "Checking")
            let savings = try await f.newAccount(f.alice, "Savings")
            // Each receipt carries the account as its transaction left it (the API answers with it).
            let deposited = try await f.wallet.deposit(user: f.alice, account: checking, amount: dollars("100"))
            #expect(deposited.account == Account(id: checking, name: "Checking", balance: dollars("100")))
            let withdrawn = try await f.wallet.withdraw(user: f.alice, account: checking, amount: dollars("12.34"))
            #expect(withdrawn.account?.balance == dollars("87.66"))
            let moved = try await f.wallet.transfer(user: f.alice, from: checking, to: savings, amount: dollars("50"))
            #expect(moved.account == Account(id: checking, name: "Checking", balance: dollars("37.66")))
            #expect(try await f.wallet.account(user: f.alice, id: checking).balance == dollars("37.66"))
            #expect(try await f.wallet.account(user: f.alice, id: savings).balance == dollars("50"))
            #expect(try await f.wallet.overview(user: f.alice, defaultName: "").total == dollars("87.66"))

            let history = try await f.wallet.history(user: f.alice, account: checking)
            #expect(history.map(\.kind) == [.transferOut, .withdrawal, .deposit])
            #expect(history.map(\.balanceAfter) == [dollars("37.66"), dollars("87.66"), dollars("100")])
            #expect(history.first?.counterpartyName == "Savings")

            await #expect(throws: WalletError.insufficientFunds(balance: dollars("37.66"))) {
                try await f.wallet.withdraw(user: f.alice, account: checking, amount: dollars("37.67"))
            }
            await #expect(throws: WalletError.insufficientFunds(balance: dollars("50"))) {
                try await f.wallet.transfer(user: f.alice, from: savings, to: checking, amount: dollars("50.01"))
            }
            await #expect(throws: WalletError.sameAccount) {
                try await f.wallet.transfer(user: f.alice, from: savings, to: savings, amount: dollars("1"))
            }
            await #expect(throws: WalletError.accountNotEmpty(balance: dollars("50"))) {
                try await f.wallet.delete(user: f.alice, account: savings)
            }
            _ = try await f.wallet.transfer(user: f.alice, from: savings, to: checking, amount: dollars("50"))
            _ = try await f.wallet.delete(user: f.alice, account: savings)
            await #expect(throws: WalletError.accountNotFound) {
                try await f.wallet.account(user: f.alice, id: savings)
            }
            #expect(try await f.wallet.account(user: f.alice, id: checking).balance == dollars("87.66"))
        }
    }

    @Test("someone else's account is not found, for every operation", arguments: Backend.all)
    func isolation(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let alices = try await f.newAccount(f.alice)
            _ = try await f.wallet.deposit(user: f.alice, account: alices, amount: dollars("10"))
            let bobs = try await f.newAccount(f.bob)
            let b = f.bob
            let w = f.wallet
            await #expect(throws: WalletError.accountNotFound) { try await w.account(user: b, id: alices) }
            await #expect(throws: WalletError.accountNotFound) { try await w.history(user: b, account: alices) }
            await #expect(throws: WalletError.accountNotFound) {
                try await w.deposit(user: b, account: alices, amount: dollars("1"))
            }
            await #expect(throws: WalletError.accountNotFound) {
                try await w.withdraw(user: b, account: alices, amount: dollars("1"))
            }
            await #expect(throws: WalletError.accountNotFound) {
                try await w.transfer(user: b, from: alices, to: bobs, amount: dollars("1"))
            }
            await #expect(throws: WalletError.accountNotFound) {
                try await w.transfer(user: b, from: bobs, to: alices, amount: dollars("1"))
            }
            await #expect(throws: WalletError.accountNotFound) {
                try await w.rename(user: b, account: alices, to: "Mine")
            }
            await #expect(throws: WalletError.accountNotFound) { try await w.delete(user: b, account: alices) }
            #expect(
                try await w.account(user: f.alice, id: alices)
                    == Account(id: alices, name: "Account 1", balance: dollars("10")))
        }
    }

    @Test("200 concurrent random transfers keep the total and no balance goes negative", arguments: Backend.all)
    func concurrentTransfers(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            var accounts: [Int64] = []
            for _ in 0..<5 {
                let id = try await f.newAccount(f.alice)
                _ = try await f.wallet.deposit(user: f.alice, account: id, amount: dollars("100"))
                accounts.append(id)
            }
            let wallet = f.wallet
            let user = f.alice
            let ids = accounts
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let from = ids[index % ids.count]
                        let to = ids[(index * 7 + 1) % ids.count]
                        let cents = Int64((index * 7919) % 9000 + 1)
                        do {
                            _ = try await wallet.transfer(user: user, from: from, to: to, amount: Money(cents: cents))
                            return true
                        } catch WalletError.insufficientFunds, WalletError.sameAccount {
                            return false
                        } catch {
                            Issue.record("unexpected \(error)")
                            return false
                        }
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count > 100)
            let overview = try await f.wallet.overview(user: f.alice, defaultName: "")
            #expect(try overview.total == dollars("500"))
            #expect(overview.accounts.allSatisfy { $0.balance >= .zero })
            // The history agrees with the balances.
            for account in overview.accounts {
                #expect(
                    try await f.wallet.history(user: f.alice, account: account.id, limit: 1000).first?.balanceAfter
                        == account.balance)
            }
        }
    }

    @Test(
        "names are counted as people see them: accents typed as two code points fit, names the database could not hold are refused, never a database error",
        arguments: Backend.all)
    func nameLengths(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            // 21 accented letters typed decomposed: 42 code points, 21 characters.
            let accented = String(repeating: "e\u{301}", count: 21)
            _ = try await f.wallet.setDisplayName(user: f.alice, to: accented)
            #expect(
                try await f.wallet.overview(user: f.alice, defaultName: "").displayName
                    == String(repeating: "é", count: 21))
            let account = try await f.newAccount(f.alice, accented)
            #expect(try await f.wallet.account(user: f.alice, id: account).name.count == 21)
            // Ten family emoji: 10 characters, 70 code points.
            let families = String(repeating: "👨‍👩‍👧‍👦", count: 10)
            await #expect(throws: WalletError.invalidDisplayName) {
                try await f.wallet.setDisplayName(user: f.alice, to: families)
            }
            await #expect(throws: WalletError.invalidAccountName) {
                try await f.wallet.addAccount(user: f.alice, name: families)
            }
            // Forty simple emoji are forty characters and forty code points: accepted.
            _ = try await f.wallet.setDisplayName(user: f.alice, to: String(repeating: "😀", count: 40))
            // Marks that reorder text ("\u{202E}evil" shows as "live") are refused.
            for name in ["\u{202E}evil", "A\u{200E}B", "x\u{2066}y"] {
                await #expect(throws: WalletError.invalidDisplayName) {
                    try await f.wallet.setDisplayName(user: f.alice, to: name)
                }
            }
        }
    }

    @Test("a person may have at most 100 accounts; deleting one makes room again", arguments: Backend.all)
    func accountLimit(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            var last: Int64 = 0
            for _ in 0..<WalletRules.maxAccountsPerPerson { last = try await f.newAccount(f.alice) }
            await #expect(throws: WalletError.accountLimit) { try await f.wallet.addAccount(user: f.alice, name: nil) }
            await #expect(throws: WalletError.accountLimit) {
                try await f.wallet.addAccount(user: f.alice, name: "One more")
            }
            #expect(try await database.count("accounts") == 100)
            // Someone else's accounts do not count.
            _ = try await f.newAccount(f.bob)
            _ = try await f.wallet.delete(user: f.alice, account: last)
            _ = try await f.newAccount(f.alice, "One more")
        }
    }

    @Test("the schema itself refuses a negative balance", arguments: Backend.all)
    func schemaCheck(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let account = try await f.newAccount(f.alice)
            await #expect(throws: (any Error).self) {
                try await f.database.execute("UPDATE accounts SET balance_cents = -1 WHERE id = \(account)")
            }
            #expect(try await f.wallet.account(user: f.alice, id: account).balance == .zero)
        }
    }

}

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
}
