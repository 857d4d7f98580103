import Foundation
import Testing

@testable import AuthCore

/// Limits are enforced inside one SQLite write transaction each, so they hold when many
/// requests race.
@Suite("Limits under concurrency")
struct ConcurrencyTests {
    @Test("50 simultaneous wrong guesses at one code: only 5 are evaluated", arguments: Backend.all)
    func parallelGuesses(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let request = try await f.service.requestCode(phoneInput: "5305550123", session: nil)
            let outcomes = await withTaskGroup(of: SignInError?.self) { group in
                for _ in 0..<50 {
                    let wrong = f.wrongCode()
                    group.addTask {
                        do {
                            _ = try await f.service.verify(session: request.session, codeInput: wrong)
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
            let failed = try await f.database.integer("SELECT failed_attempts FROM verifications")
            #expect(failed == 5)
            // And the right code is dead too.
            await #expect(throws: SignInError.tooManyAttempts) {
                _ = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
            }
        }
    }

    @Test("20 simultaneous code requests for one number send one text", arguments: Backend.all)
    func parallelSends(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let sentFlags = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        (try? await f.service.requestCode(phoneInput: "5305550123", session: nil))?.sent ?? false
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(sentFlags.filter { $0 }.count == 1)
            #expect(f.sms.sent.count == 1)
        }
    }

    @Test(
        "the spend budget holds under concurrency: 24 numbers from 24 clients at once, 8 texts allowed, 8 sent",
        arguments: Backend.all)
    func parallelBudget(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxTextsPerHour = 8
            let f = ServiceFixture(database, policy: policy)
            let outcomes = await withTaskGroup(of: Result<Bool, SignInError>.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        do {
                            let phone = "415\(200 + index % 8)\(String(format: "%04d", index))"
                            return .success(
                                try await f.service.sendCode(phoneInput: phone, client: "10.0.\(index).1").sent)
                        } catch {
                            return .failure(error as? SignInError ?? .deliveryFailed)
                        }
                    }
                }
                return await group.reduce(into: [Result<Bool, SignInError>]()) { $0.append($1) }
            }
            let sent = outcomes.filter { (try? $0.get()) == true }.count
            let refused = outcomes.filter {
                if case .failure(.textsUnavailable) = $0 { true } else { false }
            }.count
            #expect(sent == 8)
            #expect(refused == 16)
            #expect(f.sms.sent.count == 8)
            let counted = try await f.database.count("code_sends")
            #expect(counted == 8)
        }
    }

    @Test(
        "numbers of one exchange get at most the exchange's texts, however many clients ask at once",
        arguments: Backend.all)
    func parallelExchange(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxTextsPerExchange = 3
            let f = ServiceFixture(database, policy: policy)
            let sent = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let phone = "530555\(String(format: "%04d", 100 + index))"
                        return (try? await f.service.sendCode(phoneInput: phone, client: "10.1.\(index).1"))?.sent
                            ?? false
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(sent == 3)
            // Another exchange is not held back.
            let elsewhere = try await f.service.sendCode(phoneInput: "5305560100")
            #expect(elsewhere.sent)
        }
    }
}
