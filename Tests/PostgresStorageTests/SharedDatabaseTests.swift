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

/// Counts the texts it is asked to send; never fails.
final class CountingSender: CodeSender {
    private let count = NIOLockedValueBox(0)
    var sent: Int { count.withLockedValue { $0 } }
    func send(_ message: CodeMessage) async throws -> DeliveryReport {
        count.withLockedValue { $0 += 1 }
        return DeliveryReport(providerID: nil, status: .sent)
    }
}

/// Several app instances on one PostgreSQL database: each "instance" here is its own
/// `PostgresBackend` (its own connection pool) on a shared schema, and the requests of one test
/// are spread over them and run at once. What SQLite gets from its single writer, PostgreSQL
/// must get from its locks.
@Suite("One PostgreSQL database, several instances", .enabled(if: TestPostgres.url != nil))
struct SharedDatabaseTests {
    struct Instance {
        let backend: PostgresBackend
        let signIn: SignInService
        let wallet: Wallet
    }

    /// `count` instances on a fresh schema, all started at once (so their migrations race too).
    func withInstances(
        _ count: Int = 2, policy: SignInPolicy = SignInPolicy(), sender: CountingSender = CountingSender(),
        _ body: ([Instance], String) async throws -> Void
    ) async throws {
        let configuration = try await TestPostgres.makeSchema()
        let schema = configuration.schema!
        let secret = ServerSecret.random()
        let running = try await withThrowingTaskGroup(
            of: (backend: PostgresBackend, stop: @Sendable () async -> Void).self
        ) { group in
            for _ in 0..<count {
                group.addTask { try await PostgresBackend.running(configuration, logger: Logger(label: "pg")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let instances = running.map(\.backend).map { backend in
            Instance(
                backend: backend,
                signIn: SignInService(
                    store: SQLAuthStore(runner: PostgresRunner(backend)), sms: sender,
                    hasher: CodeHasher(secret: secret),
                    composer: MessageComposer(appName: nil, domain: "example.com", wording: .forTests),
                    policy: policy, logger: Logger(label: "test"), makeCode: { .testMode }),
                wallet: Wallet(store: SQLWalletStore(runner: PostgresRunner(backend))))
        }
        do {
            try await body(instances, schema)
        } catch {
            for instance in running { await instance.stop() }
            await TestPostgres.dropSchema(schema)
            throw error
        }
        for instance in running { await instance.stop() }
        await TestPostgres.dropSchema(schema)
    }

    @Test("instances started together migrate once")
    func migrationsOnce() async throws {
        try await withInstances(4) { _, schema in
            let applied = try await TestPostgres.count("schema_migrations", in: schema)
            #expect(applied == PostgresMigrations.all.count)
        }
    }

    @Test("50 simultaneous wrong guesses at one code over two instances: only 5 are evaluated")
    func parallelGuesses() async throws {
        try await withInstances { instances, schema in
            let id = try #require(
                try await instances[0].signIn.sendCode(phoneInput: "5305550123").verificationID
            ).value
            let outcomes = await withTaskGroup(of: SignInError?.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        do {
                            _ = try await instances[index % 2].signIn.verify(
                                phoneInput: "5305550123", verificationID: id,
                                // 50 different wrong codes: the same one again is no new guess.
                                codeInput: String(format: "%06d", 100 + index))
                            return nil
                        } catch {
                            return error as? SignInError
                        }
                    }
                }
                return await group.reduce(into: [SignInError?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .incorrectCode }.count == 4)
            #expect(outcomes.filter { $0 == .tooManyAttempts }.count == 46)
            #expect(try await TestPostgres.count("failed_checks", in: schema) == 5)
            // And the right code is dead on both instances.
            for instance in instances {
                await #expect(throws: SignInError.tooManyAttempts) {
                    _ = try await instance.signIn.verify(
                        phoneInput: "5305550123", verificationID: id, codeInput: "123456")
                }
            }
        }
    }

    @Test("20 simultaneous code requests for one number over two instances send one text")
    func parallelSends() async throws {
        let sender = CountingSender()
        try await withInstances(sender: sender) { instances, schema in
            let sent = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        (try? await instances[index % 2].signIn.sendCode(phoneInput: "5305550123"))?.sent ?? false
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(sent == 1)
            #expect(sender.sent == 1)
            let counted = try await TestPostgres.count("code_sends", in: schema)
            #expect(counted == 1)
        }
    }

    @Test("the per-client limit holds across instances: 40 numbers from one address, exactly 20 texts")
    func clientLimit() async throws {
        let sender = CountingSender()
        try await withInstances(sender: sender) { instances, _ in
            let refusals = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        do {
                            _ = try await instances[index % 2].signIn.sendCode(
                                phoneInput: String(format: "530555%04d", index), client: "203.0.113.7")
                            return false
                        } catch SignInError.tooManyCodesFromClient {
                            return true
                        } catch {
                            Issue.record("unexpected \(error)")
                            return false
                        }
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(sender.sent == 20)
            #expect(refusals == 20)
        }
    }

    @Test("the spend budget holds across instances: 20 numbers from 20 addresses over two instances, exactly 6 texts")
    func budget() async throws {
        let sender = CountingSender()
        var policy = SignInPolicy()
        policy.maxTextsPerHour = 6
        try await withInstances(policy: policy, sender: sender) { instances, _ in
            let refusals = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        do {
                            _ = try await instances[index % 2].signIn.sendCode(
                                phoneInput: String(format: "415%03d%04d", 250 + index, index),
                                client: "198.51.100.\(index)")
                            return false
                        } catch SignInError.textsUnavailable {
                            return true
                        } catch {
                            Issue.record("unexpected \(error)")
                            return false
                        }
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(sender.sent == 6)
            #expect(refusals == 14)
        }
    }

    @Test("a code sent by one instance signs in on the other; the session is valid on both and ends on both")
    func crossInstanceSignIn() async throws {
        try await withInstances { instances, _ in
            let request = try await instances[0].signIn.requestCode(phoneInput: "5305550123", session: nil)
            let signedIn = try await instances[1].signIn.verify(session: request.session, codeInput: "123456")
            for instance in instances {
                guard case .signedIn(let user) = try await instance.signIn.state(of: signedIn.session) else {
                    Issue.record("not signed in")
                    return
                }
                #expect(user.phone.e164 == "+15305550123")
            }
            try await instances[1].signIn.signOut(session: signedIn.session)
            #expect(try await instances[0].signIn.state(of: signedIn.session) == nil)
        }
    }

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
