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

/// One app instance on the shared database: its own `PostgresBackend` (its own connection
/// pool), with the sign-in service and the wallet over it.
struct AppInstance {
    let backend: PostgresBackend
    let signIn: SignInService
    let wallet: Wallet
}

/// The steps of the suites that run several app instances on one PostgreSQL schema.
protocol SharedDatabaseSteps {}

extension SharedDatabaseSteps {
    /// `count` instances on a fresh schema, all started at once (so their migrations race too).
    func withInstances(
        _ count: Int = 2, policy: SignInPolicy = SignInPolicy(), sender: CountingSender = CountingSender(),
        _ body: ([AppInstance], String) async throws -> Void
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
            AppInstance(
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
}
