import AuthCore
import Foundation
import Testing

@testable import WalletCore

/// The one-time keys of wallet changes (a form's `key`, the API's `Idempotency-Key`): a replay
/// applies once, a key reused for another request is refused, old keys are forgotten.
@Suite("Wallet one-time keys")
struct WalletKeyTests {
    func dollars(_ text: String) -> Money { try! Money(parsing: text) }

    /// A fresh one-time key, sent with the request whose fingerprint is `request` repeated.
    func newKey(request: UInt8 = 1) -> OperationKey {
        OperationKey(Wallet.newKey(), fingerprint: Data(repeating: request, count: 32))
    }

    @Test("a replayed key returns the first receipt and changes nothing", arguments: Backend.all)
    func replay(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let account = try await f.newAccount(f.alice)
            let key = newKey()
            let first = try await f.wallet.deposit(user: f.alice, account: account, amount: dollars("5"), key: key)
            #expect(!first.replayed)
            let again = try await f.wallet.deposit(user: f.alice, account: account, amount: dollars("5"), key: key)
            #expect(again.replayed)
            #expect(again.operationID == first.operationID)
            #expect(try await f.wallet.account(user: f.alice, id: account).balance == dollars("5"))
            // The same key from another person is theirs, not a replay.
            let bobs = try await f.newAccount(f.bob)
            #expect(try await !f.wallet.deposit(user: f.bob, account: bobs, amount: dollars("1"), key: key).replayed)
            // A failed operation keeps no key: fixed and resent, it happens.
            let withdrawKey = newKey()
            await #expect(throws: WalletError.insufficientFunds(balance: dollars("5"))) {
                try await f.wallet.withdraw(user: f.alice, account: account, amount: dollars("6"), key: withdrawKey)
            }
            #expect(
                try await !f.wallet.withdraw(user: f.alice, account: account, amount: dollars("5"), key: withdrawKey)
                    .replayed)
            await #expect(throws: WalletError.invalidOperationKey) {
                try await f.wallet.deposit(
                    user: f.alice, account: account, amount: dollars("1"),
                    key: OperationKey("short", fingerprint: Data()))
            }
            // 20 parallel submissions of one form: applied once.
            let parallelKey = newKey()
            let wallet = f.wallet
            let user = f.alice
            let amount = dollars("1")
            let receipts = try await withThrowingTaskGroup(of: Receipt.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await wallet.deposit(user: user, account: account, amount: amount, key: parallelKey)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(receipts.filter { !$0.replayed }.count == 1)
            #expect(Set(receipts.map(\.operationID)).count == 1)
            #expect(try await f.wallet.account(user: f.alice, id: account).balance == dollars("1"))
        }
    }

    @Test(
        "a key sent again with another request is refused and changes nothing; a key stored without a fingerprint replays",
        arguments: Backend.all)
    func keyReused(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let account = try await f.newAccount(f.alice)
            let key = newKey(request: 1)
            let deposited = try await f.wallet.deposit(user: f.alice, account: account, amount: dollars("5"), key: key)
            // The same key with a withdrawal's fingerprint: before, a silent 'done' that did nothing.
            let other = OperationKey(key.value, fingerprint: newKey(request: 2).fingerprint)
            await #expect(throws: WalletError.operationKeyReused) {
                try await f.wallet.withdraw(user: f.alice, account: account, amount: dollars("5"), key: other)
            }
            await #expect(throws: WalletError.operationKeyReused) {
                try await f.wallet.deposit(user: f.alice, account: account, amount: dollars("6"), key: other)
            }
            #expect(try await f.wallet.account(user: f.alice, id: account).balance == dollars("5"))
            // The identical request still gets the first result.
            let again = try await f.wallet.deposit(user: f.alice, account: account, amount: dollars("5"), key: key)
            #expect(again.replayed && again.operationID == deposited.operationID)
            // Keys stored before fingerprints were keep today's behaviour.
            try await database.execute("UPDATE wallet_operation_keys SET request_fingerprint = NULL")
            #expect(
                try await f.wallet.withdraw(user: f.alice, account: account, amount: dollars("5"), key: other).replayed)
            #expect(try await f.wallet.account(user: f.alice, id: account).balance == dollars("5"))
        }
    }

    @Test("one-time keys are forgotten after a day, not before", arguments: Backend.all)
    func purge(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try await WalletFixture(database)
            let clock = ManualClock()
            let wallet = Wallet(store: f.database.wallet, clock: { clock.now })
            let account = try await f.newAccount(f.alice)
            _ = try await wallet.deposit(user: f.alice, account: account, amount: dollars("1"), key: newKey())
            clock.advance(by: 86_000)
            #expect(try await wallet.purgeKeys() == 0)
            clock.advance(by: 401)
            #expect(try await wallet.purgeKeys() == 1)
        }
    }
}
