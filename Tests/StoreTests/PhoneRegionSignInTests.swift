import Foundation
import TestSupport
import Testing
import Wording

@testable import AuthCore

/// Numbers that are valid but not ours to text (another region, toll-free, premium rate…) are
/// refused before the store is touched: no code, no pending session, no count against a limit.
@Suite("Sign-in to the regions we text")
struct PhoneRegionSignInTests {
    static let notTexted = [
        "(876) 210-1234", "(809) 234-5678", "(441) 370-1234", "(416) 234-5678", "(900) 234-5678",
        "(800) 234-5678", "(500) 234-5678",
    ]

    /// A service that texts the regions `list` names.
    func fixture(_ database: TestDatabase, regions list: String) throws -> ServiceFixture {
        var policy = SignInPolicy()
        policy.phoneRegions = try PhoneRegions(parsing: list)
        return ServiceFixture(database, policy: policy)
    }

    /// Rows in every table a sign-in step could write.
    func rows(_ database: TestDatabase) async throws -> [Int] {
        var counts: [Int] = []
        for table in ["users", "verifications", "sessions", "code_sends", "failed_checks"] {
            counts.append(try await database.count(table))
        }
        return counts
    }

    @Test("a valid number we do not text is refused, and nothing is stored or counted", arguments: Backend.all)
    func refusedLeavesNoTrace(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxCodesPerClient = 1
            let f = ServiceFixture(database, policy: policy)
            for input in Self.notTexted {
                await #expect(throws: SignInError.phoneNotTexted(usOnly: true)) {
                    _ = try await f.service.requestCode(phoneInput: input, session: nil, client: "10.0.0.1")
                }
                await #expect(throws: SignInError.phoneNotTexted(usOnly: true)) {
                    _ = try await f.service.sendCode(phoneInput: input, client: "10.0.0.1")
                }
                await #expect(throws: SignInError.phoneNotTexted(usOnly: true)) {
                    _ = try await f.service.verify(
                        phoneInput: input, verificationID: SessionToken.generate().value, codeInput: "123456")
                }
            }
            #expect(f.sms.sent.isEmpty)
            #expect(try await rows(database) == [0, 0, 0, 0, 0])
            // The client's one code per hour is still there for a US number.
            _ = try await f.service.requestCode(phoneInput: "(530) 555-0123", session: nil, client: "10.0.0.1")
            #expect(f.sms.sent.count == 1)
        }
    }

    @Test("the sentences: US only, or any other set of regions", arguments: Backend.all)
    func sentences(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            #expect(
                english(SignInError.phoneNotTexted(usOnly: true).saying)
                    == "We can only send codes to US phone numbers.")
            let f = try fixture(database, regions: "US,PR,VI,GU,AS,MP,CA")
            await #expect(throws: SignInError.phoneNotTexted(usOnly: false)) {
                _ = try await f.service.requestCode(phoneInput: "(876) 210-1234", session: nil)
            }
            #expect(
                english(SignInError.phoneNotTexted(usOnly: false).saying) == "We can't send codes to this phone number."
            )
        }
    }

    @Test("listed regions are texted: Canada and Puerto Rico sign in", arguments: Backend.all)
    func widened(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = try fixture(database, regions: "US,CA,PR")
            for input in ["(416) 234-5678", "(787) 234-5678"] {
                let request = try await f.service.requestCode(phoneInput: input, session: nil)
                let signedIn = try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!)
                #expect(["CA", "PR"].contains(signedIn.user.phone.region))
            }
        }
    }

    @Test("narrowing the regions later: stored numbers still read back, but get no new code", arguments: Backend.all)
    func narrowedLater(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let before = try fixture(database, regions: "US,CA")
            let pending = try await before.service.requestCode(phoneInput: "(416) 234-5678", session: nil)
            let signedIn = try await before.service.verify(
                session: (try await before.service.requestCode(phoneInput: "(604) 234-5678", session: nil)).session,
                codeInput: before.sms.lastCode!)

            let after = ServiceFixture(database)
            let canada = try PhoneNumber(parsing: "(416) 234-5678")
            #expect(try await after.service.state(of: pending.session) == .pending(canada))
            #expect(try await after.service.state(of: signedIn.session) == .signedIn(signedIn.user))
            after.clock.advance(by: 60)  // past the cooldown: the refusal is the region
            await #expect(throws: SignInError.phoneNotTexted(usOnly: true)) {
                _ = try await after.service.resendCode(session: pending.session)
            }
            #expect(after.sms.sent.isEmpty)
        }
    }
}

/// What people reading English are told.
private func english(_ phrase: Phrase) -> String { Wording.forTests[.english](phrase) }
