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

/// Several app instances on one PostgreSQL database: each "instance" here is its own
/// `PostgresBackend` (its own connection pool) on a shared schema, and the requests of one test
/// are spread over them and run at once. What SQLite gets from its single writer, PostgreSQL
/// must get from its locks.
@Suite("One PostgreSQL database, several instances", .enabled(if: TestPostgres.url != nil))
struct SharedDatabaseTests: SharedDatabaseSteps {
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
}
