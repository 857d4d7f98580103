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
            let wrong = f.wrongCode()
            let outcomes = await withTaskGroup(of: SignInError?.self) { group in
                for _ in 0..<50 {
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
}
