import AuthCore
import DeliveryCore
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import StorageSQL
import Testing
import TestSupport
import WalletCore
import Wording

@testable import PostgresStorage

/// Several app instances on one PostgreSQL database, each on its own connection pool, with the
/// wallet's requests spread over them and run at once: money neither made nor lost, a form key
/// applied once, account names unique as on SQLite.
@Suite("One PostgreSQL database, several instances: the wallet", .enabled(if: TestPostgres.url != nil))
struct SharedWalletTests: SharedDatabaseSteps {
    @Test("200 random transfers at once over two instances: money is neither made nor lost")
    func parallelTransfers() async throws {
        try await withInstances { instances, schema in
            let id = try #require(
                try await instances[0].signIn.sendCode(phoneInput: "5305550123").verificationID
            ).value
            let user = try await instances[0].signIn.verify(
                phoneInput: "5305550123", verificationID: id, codeInput: "123456"
            ).user.id
            var accounts: [Int64] = []
            for _ in 0..<4 {
                let id = try await instances[0].wallet.addAccount(user: user, name: nil).accountID!
                _ = try await instances[1].wallet.deposit(user: user, account: id, amount: Money(cents: 25_000))
                accounts.append(id)
            }
            var generator = SeededGenerator(seed: 2026)
            let plan = (0..<200).map { _ in
                (
                    from: accounts.randomElement(using: &generator)!, to: accounts.randomElement(using: &generator)!,
                    cents: Int64.random(in: 1...20_000, using: &generator)
                )
            }
            await withTaskGroup(of: Void.self) { group in
                for (index, transfer) in plan.enumerated() {
                    group.addTask {
                        _ = try? await instances[index % 2].wallet.transfer(
                            user: user, from: transfer.from, to: transfer.to, amount: Money(cents: transfer.cents))
                    }
                }
            }
            let overview = try await instances[0].wallet.overview(user: user, defaultName: "")
            #expect(try overview.total == Money(cents: 100_000))
            for account in overview.accounts {
                #expect(account.balance.cents >= 0)
                let history = try await instances[1].wallet.history(user: user, account: account.id, limit: 1_000)
                #expect(history.first?.balanceAfter == account.balance)
                let net = history.reduce(Int64(0)) { sum, operation in
                    switch operation.kind {
                    case .deposit, .transferIn: sum + operation.amount.cents
                    case .withdrawal, .transferOut: sum - operation.amount.cents
                    }
                }
                #expect(net == account.balance.cents)
            }
            let operations = try await TestPostgres.count("operations", in: schema)
            #expect(operations > 4 && (operations - 4) % 2 == 0)
        }
    }

    @Test("one form key sent to both instances at once applies once")
    func replayedKey() async throws {
        try await withInstances { instances, schema in
            let id = try #require(
                try await instances[0].signIn.sendCode(phoneInput: "5305550123").verificationID
            ).value
            let user = try await instances[0].signIn.verify(
                phoneInput: "5305550123", verificationID: id, codeInput: "123456"
            ).user.id
            let account = try await instances[0].wallet.addAccount(user: user, name: "Savings").accountID!
            let key = OperationKey(Wallet.newKey(), fingerprint: Data(repeating: 7, count: 32))
            let receipts = try await withThrowingTaskGroup(of: Receipt.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        try await instances[index % 2].wallet.deposit(
                            user: user, account: account, amount: Money(cents: 500), key: key)
                    }
                }
                return try await group.reduce(into: [Receipt]()) { $0.append($1) }
            }
            #expect(receipts.filter { !$0.replayed }.count == 1)
            #expect(Set(receipts.map(\.operationID)).count == 1)
            #expect(try await instances[1].wallet.account(user: user, id: account).balance == Money(cents: 500))
            #expect(try await TestPostgres.count("operations", in: schema) == 1)
        }
    }

    @Test("account names are unique per person regardless of case, as on SQLite")
    func uniqueNames() async throws {
        try await withInstances { instances, _ in
            let id = try #require(
                try await instances[0].signIn.sendCode(phoneInput: "5305550123").verificationID
            ).value
            let user = try await instances[0].signIn.verify(
                phoneInput: "5305550123", verificationID: id, codeInput: "123456"
            ).user.id
            _ = try await instances[0].wallet.addAccount(user: user, name: "Savings")
            await #expect(throws: WalletError.accountNameTaken) {
                _ = try await instances[1].wallet.addAccount(user: user, name: "SAVINGS")
            }
            #expect(try await instances[1].wallet.addAccount(user: user, name: nil).accountID != nil)
            let names = try await instances[0].wallet.overview(user: user, defaultName: "").accounts.map(\.name)
            #expect(names == ["Savings", "Account 1"])
        }
    }
}
