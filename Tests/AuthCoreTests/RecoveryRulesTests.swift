import EventsCore
import Foundation
import Testing

@testable import AuthCore

/// "Lost your phone or number?": the recovery proof's rules, without a database.
@Suite("Recovery rules")
struct RecoveryRulesTests {
    let rules = SignInRules(policy: SignInPolicy())
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let phone = try! PhoneNumber(parsing: "(530) 555-0123")
    let digest = Data(repeating: 9, count: 32)

    func proof(client: String? = "192.0.2.0") -> RecoveryProof {
        RecoveryProof(phone: phone, codeDigest: digest, client: client, now: now)
    }

    @Test("the reads lock the number and the client, and name both windows of wrong tries")
    func reads() {
        let list = rules.recoveryReads(proof()).list
        #expect(list.locks == [.phone("+15305550123"), .client("192.0.2.0")])
        #expect(list.reads.contains(.recoveryCode(phone: "+15305550123", digest: digest)))
        let windows = list.reads.compactMap { if case .events(let events) = $0 { events } else { nil } }
        #expect(windows.map(\.kind) == [.phoneRecoveryFailures, .clientRecoveryFailures])
        #expect(windows.map(\.position) == [4, 19])
        #expect(windows.allSatisfy { $0.since == now.timeIntervalSince1970 - 3600 })
    }

    @Test("a right code is spent, and says how many are left")
    func right() {
        var stored = Stored()
        stored.recoveryCode = RecoveryCodeMatch(user: 7, matches: true, unused: 10, phone: "+15305550123")
        let decision = rules.proveRecovery(proof(), given: stored)
        #expect(decision.outcome == .proved(user: 7, codesLeft: 9, phone: "+15305550123", detachedFrom: nil))
        #expect(
            decision.changes == [
                .spendRecoveryCode(user: 7, digest: digest, at: now.timeIntervalSince1970),
                .recordEvent(
                    Event(
                        .recoveryProved, at: now.timeIntervalSince1970, user: 7, phone: "+15305550123",
                        client: "192.0.2.0")),
            ])
    }

    @Test("a wrong code and a number with no account are one answer, each counted for the number and the client")
    func wrong() {
        var stored = Stored()
        let failure: [AuthChange] = [
            .recordRecoveryFailure(
                phone: "+15305550123", client: "192.0.2.0", at: now.timeIntervalSince1970,
                tried: SignInRules.recoveryTry(digest, phone: "+15305550123")),
            // Noted for the number (its account's activity, if it has one), with the client's /24.
            .recordEvent(
                Event(.wrongRecoveryCode, at: now.timeIntervalSince1970, phone: "+15305550123", client: "192.0.2.0")),
        ]
        #expect(rules.proveRecovery(proof(), given: stored) == AuthDecision(.wrong, changes: failure))
        stored.recoveryCode = RecoveryCodeMatch(user: 7, matches: false, unused: 10)
        #expect(rules.proveRecovery(proof(), given: stored) == AuthDecision(.wrong, changes: failure))
    }

    @Test("the number's last wrong try, sent again (Reload posting the form again), is answered alike and not counted")
    func sameTryAgain() {
        var stored = Stored()
        stored.recoveryCode = RecoveryCodeMatch(
            user: 7, matches: false, unused: 10, lastWrongTry: SignInRules.recoveryTry(digest, phone: "+15305550123"))
        #expect(rules.proveRecovery(proof(), given: stored) == AuthDecision(.wrong))
        // Another number's try with the same code is another try.
        stored.recoveryCode.lastWrongTry = SignInRules.recoveryTry(digest, phone: "+14155550100")
        #expect(rules.proveRecovery(proof(), given: stored).changes.count == 2)
    }

    @Test("'Is this your account?' answered after its account left the number: over, and nothing counted")
    func staleClaim() {
        var stored = Stored()
        stored.session = SessionRecord(
            pendingPhone: "+15305550123", userID: nil, userPhone: nil, lastSeenAt: now.timeIntervalSince1970,
            expiresAt: now.timeIntervalSince1970 + 600, absoluteExpiresAt: now.timeIntervalSince1970 + 600,
            createdAt: now.timeIntervalSince1970, method: .code, claimUserID: 7)
        var request = proof()
        request.claim = .init(session: Data(repeating: 1, count: 32), account: 7, signedIn: Data(repeating: 2, count: 32), userAgent: nil)
        // The number holds another account now (the fresh one): the read finds none of 7's.
        stored.recoveryCode = RecoveryCodeMatch(user: nil, matches: false, unused: 0)
        #expect(
            rules.proveRecovery(request, given: stored)
                == AuthDecision(.claimEnded, changes: [.deleteSession(key: Data(repeating: 1, count: 32))]))
        stored.recoveryCode = RecoveryCodeMatch(user: 7, matches: false, unused: 3)
        #expect(rules.proveRecovery(request, given: stored).outcome == .wrong)
    }

    @Test("a full window looks at nothing, the right code included, and says until when")
    func limited() {
        var stored = Stored()
        stored.recoveryCode = RecoveryCodeMatch(user: 7, matches: true, unused: 10, phone: "+15305550123")
        stored.events[.phoneRecoveryFailures] = now.timeIntervalSince1970 - 600
        #expect(rules.proveRecovery(proof(), given: stored) == AuthDecision(.numberLimited(until: now + 3000)))
        stored.events[.clientRecoveryFailures] = now.timeIntervalSince1970 - 60
        #expect(rules.proveRecovery(proof(), given: stored) == AuthDecision(.clientLimited(until: now + 3540)))
        // No client known: its window is not read, and only the number's counts.
        stored.events[.phoneRecoveryFailures] = nil
        #expect(
            rules.proveRecovery(proof(client: nil), given: stored).outcome
                == .proved(user: 7, codesLeft: 9, phone: "+15305550123", detachedFrom: nil))
    }
}
