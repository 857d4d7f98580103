import Encodings
import Foundation
import Testing
import TestSupport

@testable import AuthCore

/// What a sign-in leaves stored, on every backend: sessions that end by idling, by age and on
/// sign-out; the purge of what expired; codes kept only as digests.
@Suite("What a sign-in leaves stored")
struct StoredSignInTests {
    let phoneText = "(530) 555-0123"

    @Test("signed-in sessions end after 7 days idle or 30 days in all, and on sign-out", arguments: Backend.all)
    func sessionLifetimes(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            func signIn() async throws -> SessionToken {
                f.clock.advance(by: 31)
                let request = try await f.service.requestCode(phoneInput: phoneText, session: nil)
                return try await f.service.verify(session: request.session, codeInput: f.sms.lastCode!).session
            }
            let idle = try await signIn()
            f.clock.advance(by: 7 * 86_400 - 10)
            #expect(try await f.service.state(of: idle) != nil)  // used: idle timer restarts
            f.clock.advance(by: 7 * 86_400 - 10)
            #expect(try await f.service.state(of: idle) != nil)
            f.clock.advance(by: 7 * 86_400 + 1)
            #expect(try await f.service.state(of: idle) == nil)

            let busy = try await signIn()
            for _ in 0..<4 {
                f.clock.advance(by: 6 * 86_400)
                #expect(try await f.service.state(of: busy) != nil)
            }
            f.clock.advance(by: 6 * 86_400 - 60)  // day 30 minus a minute: still in
            #expect(try await f.service.state(of: busy) != nil)
            f.clock.advance(by: 61)  // past the 30-day limit although used every few days
            #expect(try await f.service.state(of: busy) == nil)

            let out = try await signIn()
            try await f.service.signOut(session: out)
            #expect(try await f.service.state(of: out) == nil)
        }
    }

    @Test("purge deletes expired sessions at once and expired codes after a day", arguments: Backend.all)
    func purge(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            #expect(try await f.service.purgeExpired() == 0)
            func counts() async throws -> [Int] {
                [try await f.database.count("sessions"), try await f.database.count("verifications")]
            }
            f.clock.advance(by: 1201)
            #expect(try await f.service.purgeExpired() == 1)
            #expect(try await counts() == [0, 1])
            f.clock.advance(by: 86_400)
            // The expired code, and the send record once it left the limits' windows.
            #expect(try await f.service.purgeExpired() == 2)
            #expect(try await counts() == [0, 0])
        }
    }

    @Test("codes are stored only as digests", arguments: Backend.all)
    func storedHashed(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let code = f.sms.lastCode!
            let stored = try #require(try await f.database.data("SELECT code_digest FROM verifications"))
            #expect(stored.count == 32)
            #expect(!stored.hexString.contains(code))
            #expect(String(decoding: stored, as: UTF8.self) != code)
        }
    }
}
