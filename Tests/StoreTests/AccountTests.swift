import Crypto
import EventsCore
import Foundation
import Testing

@testable import AccountCore
@testable import AuthCore
import Encodings

/// The account over the years, on every backend: its number moved by a code to the new number,
/// everything kept about the person downloaded, and the account deleted whole.
@Suite("Your account, on every backend")
struct AccountTests {
    static let rules = AccountRules(forgettingKey: SymmetricKey(size: .bits256), codeLifetime: 600)

    /// Signs `phone` in by code; the user.
    func signIn(_ fixture: ServiceFixture, _ phone: String) async throws -> User {
        let pending = try await fixture.service.requestCode(phoneInput: phone, session: nil)
        fixture.clock.advance(by: 1)
        let signedIn = try await fixture.service.verify(session: pending.session, codeInput: fixture.sms.lastCode!)
        fixture.clock.advance(by: 60)
        return signedIn.user
    }

    /// Asks for a code to `phone` for a change of number; the pending session.
    func codeForChange(_ fixture: ServiceFixture, to phone: String) async throws -> SessionToken {
        let pending = try await fixture.service.requestCode(phoneInput: phone, session: nil)
        fixture.clock.advance(by: 1)
        return pending.session
    }

    @Test("a right code to the new number moves the account, notes the change and texts the old number", arguments: Backend.all)
    func moves(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let alice = try await signIn(fixture, "4155550100")
            let new = try PhoneNumber(parsing: "5305550123")
            let session = try await codeForChange(fixture, to: "5305550123")
            // A wrong code moves nothing and counts a try, as on Verify.
            await #expect(throws: SignInError.incorrectCode) {
                _ = try await fixture.service.moveAccount(
                    of: alice, to: new, session: session, codeInput: fixture.wrongCode())
            }
            let code = try #require(fixture.sms.lastCode)
            let moved = try await fixture.service.moveAccount(of: alice, to: new, session: session, codeInput: code)
            #expect(moved == User(id: alice.id, phone: new))
            #expect(try await database.integer("SELECT count(*) FROM users WHERE phone = '+15305550123'") == 1)
            #expect(try await database.integer("SELECT count(*) FROM users WHERE phone = '+14155550100'") == 0)
            #expect(try await database.count("number_changes") == 1)
            let notice = try #require(fixture.sms.sent.last)
            #expect(notice.to == alice.phone)
            #expect(notice.words.contains("(•••) •••-0123"))
            #expect(!notice.words.contains("530"))
            // The notice is counted like any text: three sends (two codes, one notice).
            #expect(try await database.count("code_sends") == 3)
            // The code is used up, and its pending session with it.
            await #expect(throws: SignInError.noPendingSignIn) {
                _ = try await fixture.service.moveAccount(of: alice, to: new, session: session, codeInput: code)
            }
            // Signing in with the new number is the same account.
            #expect(try await signIn(fixture, "5305550123").id == alice.id)
        }
    }

    @Test("a number with its own account is refused only after its code, and nothing moves", arguments: Backend.all)
    func numberWithAccount(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let alice = try await signIn(fixture, "4155550100")
            let bob = try await signIn(fixture, "5305550123")
            let session = try await codeForChange(fixture, to: "5305550123")
            await #expect(throws: NumberChangeError.numberHasAccount) {
                _ = try await fixture.service.moveAccount(
                    of: alice, to: bob.phone, session: session, codeInput: fixture.sms.lastCode!)
            }
            #expect(try await database.integer("SELECT id FROM users WHERE phone = '+14155550100'") == Int(alice.id))
            #expect(try await database.integer("SELECT id FROM users WHERE phone = '+15305550123'") == Int(bob.id))
            #expect(try await database.count("number_changes") == 0)
        }
    }

    @Test("two changes of one account at once: one moves it, the other finds it moved", arguments: Backend.all)
    func twoChangesAtOnce(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let alice = try await signIn(fixture, "4155550100")
            let first = try PhoneNumber(parsing: "5305550123")
            let second = try PhoneNumber(parsing: "5305550124")
            let one = try await codeForChange(fixture, to: "5305550123")
            let oneCode = fixture.sms.lastCode!
            let two = try await codeForChange(fixture, to: "5305550124")
            let twoCode = fixture.sms.lastCode!
            async let a = Result(catching: { try await fixture.service.moveAccount(of: alice, to: first, session: one, codeInput: oneCode) })
            async let b = Result(catching: { try await fixture.service.moveAccount(of: alice, to: second, session: two, codeInput: twoCode) })
            let results = await [a, b]
            let moved = results.compactMap { try? $0.get() }
            #expect(moved.count == 1)
            for result in results {
                if case .failure(let error) = result { #expect(error as? NumberChangeError == .changedMeanwhile) }
            }
            #expect(try await database.count("number_changes") == 1)
            #expect(try await database.integer("SELECT count(*) FROM users") == 1)
        }
    }

    @Test("the download holds the person's rows and no secret, and none of another person's", arguments: Backend.all)
    func download(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            // The number's earlier holder: their sends are not Alice's.
            _ = try await fixture.service.requestCode(phoneInput: "4155550100", session: nil)
            fixture.clock.advance(by: 3600)
            let alice = try await signIn(fixture, "4155550100")
            let mallory = try await signIn(fixture, "5305550199")
            let session = try await codeForChange(fixture, to: "5305550123")
            _ = try await fixture.service.moveAccount(
                of: alice, to: try PhoneNumber(parsing: "5305550123"), session: session, codeInput: fixture.sms.lastCode!)
            try await database.execute(
                "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (\(alice.id), 'Savings', 1250, 1)")
            try await database.execute(
                "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (\(mallory.id), 'Loot', 99, 1)")

            let now = fixture.clock.now.timeIntervalSince1970
            let export = try #require(try await database.account.export(user: alice.id, now: now))
            #expect(export.account.id == alice.id)
            #expect(export.account.phoneNumber == "+15305550123")
            #expect(export.phoneNumbers.map(\.phoneNumber) == ["+14155550100", "+15305550123"])
            #expect(export.phoneNumbers.first?.until != nil && export.phoneNumbers.last?.until == nil)
            // Her sign-in code, the code to the new number and the notice to the old; not the code
            // sent to the number an hour before it was hers, nor Mallory's.
            #expect(export.codesSent.count == 3)
            #expect(!export.codesSent.contains { $0.phoneNumber == "+15305550199" })
            #expect(export.sessions.count == 1)
            #expect(export.wallet.map(\.name) == ["Savings"])
            let json = String(decoding: try AccountExport.encoder.encode(export), as: UTF8.self)
            #expect(json.contains(#""phone_number" : "+15305550123""#))
            for secret in ["code_digest", "key", "token", "public_key", "holder", "Loot", "5305550199"] {
                #expect(!json.contains("\"\(secret)\""), "\(secret)")
                #expect(!json.contains(secret) || secret == "key" || secret == "token", "\(secret)")
            }
            #expect(try await database.account.export(user: 9999, now: now) == nil)
        }
    }

    @Test("a number's rows from before it was the person's, up to when its previous holder moved off it, are not in their download", arguments: Backend.all)
    func previousHolder(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let previous = try await signIn(fixture, "5305550520")
            let session = try await codeForChange(fixture, to: "5305550521")
            _ = try await fixture.service.moveAccount(
                of: previous, to: try PhoneNumber(parsing: "5305550521"), session: session,
                codeInput: fixture.sms.lastCode!)
            fixture.clock.advance(by: 60)
            // Within a code's lifetime, the number's next holder signs in.
            let next = try await signIn(fixture, "5305550520")
            let export = try #require(
                try await database.account.export(user: next.id, now: fixture.clock.now.timeIntervalSince1970))
            // Only the code that signed them in; not the previous holder's sign-in code or notice.
            #expect(export.codesSent.count == 1)
            #expect(export.codesSent.allSatisfy { $0.sentAt.timeIntervalSince1970 > fixture.clock.now.timeIntervalSince1970 - 120 })
        }
    }

    @Test("a detached account held its old number until the number last proved itself, and its new one from its recovery: neither the new holder's texts nor the new number's earlier ones are in its download", arguments: Backend.all)
    func detachedHistory(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let old = try PhoneNumber(parsing: "4155550100")
            let new = try PhoneNumber(parsing: "5305550123")
            let alice = try await signIn(fixture, "4155550100")
            let lastProved = fixture.clock.now.timeIntervalSince1970 - 60
            let codes = RecoveryCodes(key: SymmetricKey(size: .bits256))
            let made = codes.generate(using: { Array(secureRandomBytesForTests($0)) })
            try await database.account.replaceRecoveryCodes(
                user: alice.id, digests: made.digests, at: fixture.clock.now.timeIntervalSince1970)

            // 91 days on, the number's new holder signs in and starts afresh.
            fixture.clock.advance(by: 91 * 86_400)
            let pending = try await fixture.service.requestCode(phoneInput: "4155550100", session: nil)
            fixture.clock.advance(by: 1)
            var claim: SessionToken?
            do {
                _ = try await fixture.service.verify(session: pending.session, codeInput: fixture.sms.lastCode!)
            } catch let dormant as DormantAccount {
                claim = dormant.claim
            }
            let bob = try await fixture.service.startFresh(try #require(claim), phone: old, account: alice.id)
            let detachedAt = fixture.clock.now.timeIntervalSince1970

            // A month later someone else is texted at the number Alice will move to.
            fixture.clock.advance(by: 30 * 86_400)
            _ = try await fixture.service.requestCode(phoneInput: "5305550123", session: nil)
            fixture.clock.advance(by: 3600)
            _ = try await fixture.service.proveRecovery(phoneInput: "4155550100", codeDigest: made.digests[0])
            let toNew = try await codeForChange(fixture, to: "5305550123")
            _ = try await fixture.service.recoverAccount(
                alice.id, from: nil, to: new, session: toNew, codeInput: fixture.sms.lastCode!)
            let attachedAt = fixture.clock.now.timeIntervalSince1970

            let now = fixture.clock.now.timeIntervalSince1970
            let export = try #require(try await database.account.export(user: alice.id, now: now))
            #expect(export.phoneNumbers.map(\.phoneNumber) == [old.e164, new.e164])
            #expect(export.phoneNumbers[0].until?.timeIntervalSince1970 == lastProved)
            #expect(export.phoneNumbers[1].from.timeIntervalSince1970 == attachedAt)
            // Her sign-in code and the code that moved her to the new number: not Bob's code to
            // her old number, nor the stranger's to her new one.
            #expect(export.codesSent.count == 2)
            #expect(export.codesSent.map(\.phoneNumber) == [old.e164, new.e164])
            #expect(export.codesSent.allSatisfy { $0.sentAt.timeIntervalSince1970 <= lastProved || $0.sentAt.timeIntervalSince1970 > attachedAt - 600 })
            // Bob's download has his own code, from the sign-in that detached Alice's account.
            let bobs = try #require(try await database.account.export(user: bob.user.id, now: now))
            #expect(bobs.phoneNumbers.map(\.phoneNumber) == [old.e164])
            #expect(bobs.codesSent.count == 1)
            #expect(bobs.codesSent.allSatisfy { $0.sentAt.timeIntervalSince1970 > detachedAt - 600 })
        }
    }

    @Test("recovery codes: ten of 50 bits as xxxx-xxxx-xx, read back whatever the case, dashes or O for 0; a new set ends the old", arguments: Backend.all)
    func recoveryCodes(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let codes = RecoveryCodes(key: SymmetricKey(size: .bits256))
            let made = codes.generate(using: { Array(secureRandomBytesForTests($0)) })
            #expect(made.codes.count == 10 && Set(made.codes).count == 10)
            for code in made.codes {
                #expect(code.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}/) != nil, "\(code)")
            }
            let first = made.codes[0]
            #expect(codes.digest(of: first) == made.digests[0])
            #expect(codes.digest(of: " " + first.lowercased().replacingOccurrences(of: "-", with: "") + " ") == made.digests[0])
            #expect(codes.digest(of: first.replacingOccurrences(of: "0", with: "O")) == made.digests[0])
            #expect(codes.digest(of: String(first.dropLast())) == nil)
            #expect(codes.digest(of: first + "0") == nil)
            #expect(codes.digest(of: "UUUU-UUUU-UU") == nil)  // U is not in the alphabet
            #expect(RecoveryCodes(key: SymmetricKey(size: .bits256)).digest(of: first) != made.digests[0])
            // All 50 bits are used: the code of all-ones bytes is the alphabet's last letter throughout.
            #expect(RecoveryCodes.code(from: Array(repeating: 0xFF, count: 7)) == "ZZZZ-ZZZZ-ZZ")

            let fixture = ServiceFixture(database)
            let alice = try await signIn(fixture, "4155550100")
            let now = fixture.clock.now.timeIntervalSince1970
            try await database.account.replaceRecoveryCodes(user: alice.id, digests: made.digests, at: now)
            #expect(try await database.account.summary(user: alice.id, now: now)?.recoveryCodesLeft == 10)
            let again = codes.generate(using: { Array(secureRandomBytesForTests($0)) })
            try await database.account.replaceRecoveryCodes(user: alice.id, digests: again.digests, at: now)
            #expect(try await database.count("recovery_codes") == 10)
            #expect(try await database.data("SELECT digest FROM recovery_codes ORDER BY digest LIMIT 1").map { again.digests.contains($0) } == true)
        }
    }

    @Test("deleting is refused while money is held; then every personal row goes and the number is free", arguments: Backend.all)
    func delete(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let fixture = ServiceFixture(database)
            let alice = try await signIn(fixture, "4155550100")
            let bob = try await signIn(fixture, "5305550123")
            try await database.execute(
                "INSERT INTO accounts (user_id, name, balance_cents, created_at) VALUES (\(alice.id), 'Savings', 1, 1)")
            // Apps she used (a consent each); Bob's app is not hers.
            for (user, app) in [(alice.id, "grafana"), (alice.id, "notes"), (bob.id, "wiki")] {
                try await database.oidc.grantConsent(user: user, client: app, scopes: [.openid], at: 1)
            }
            let rules = Self.rules
            #expect(try await database.account.delete(user: alice.id, at: fixture.clock.now.timeIntervalSince1970) { rules.deletion($0) } == .moneyHeld(cents: 1))
            #expect(try await database.integer("SELECT count(*) FROM users") == 2)

            try await database.execute("UPDATE accounts SET balance_cents = 0 WHERE user_id = \(alice.id)")
            let decision = try await database.account.delete(user: alice.id, at: fixture.clock.now.timeIntervalSince1970) { rules.deletion($0) }
            guard case .delete = decision else { Issue.record("not deleted: \(decision)"); return }
            #expect(try await database.integer("SELECT count(*) FROM users") == 1)
            for table in ["sessions", "accounts", "devices", "number_changes"] {
                #expect(try await database.integer("SELECT count(*) FROM \(table) WHERE user_id = \(alice.id)") == 0, "\(table)")
            }
            // Her events go; one says an account was deleted, and none names her number.
            #expect(try await database.integer("SELECT count(*) FROM events WHERE user_id = \(alice.id)") == 1)
            #expect(try await database.integer("SELECT count(*) FROM events WHERE type = 'user.deleted'") == 1)
            // It names the apps she used, and only those, to be told (Back-Channel Logout).
            let deleted = try await database.events.export(EventFilter(type: .accountDeleted), after: 0, limit: 5)
            #expect(deleted.map(\.event.detail) == ["grafana notes"])
            #expect(try await database.integer("SELECT count(*) FROM events WHERE phone = '+14155550100'") == 0)
            // The limits' rows stay, without the number.
            #expect(try await database.integer("SELECT count(*) FROM code_sends WHERE phone = '+14155550100'") == 0)
            #expect(try await database.integer("SELECT count(*) FROM code_sends WHERE phone LIKE 'forgotten:%'") == 1)
            #expect(try await database.integer("SELECT count(*) FROM code_sends") == 2)
            // Bob is untouched; the number is free for a new account.
            #expect(try await database.integer("SELECT id FROM users WHERE phone = '+15305550123'") == Int(bob.id))
            fixture.clock.advance(by: 60)
            #expect(try await signIn(fixture, "4155550100").id != alice.id)
            #expect(try await database.account.delete(user: alice.id, at: fixture.clock.now.timeIntervalSince1970) { rules.deletion($0) } == .noAccount)
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

func secureRandomBytesForTests(_ count: Int) -> [UInt8] { secureRandomBytes(count) }
