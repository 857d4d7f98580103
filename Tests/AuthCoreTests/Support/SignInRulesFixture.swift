import Foundation

@testable import AuthCore

/// The hand-made snapshot pieces the sign-in rules' suites share: one number, one moment, the
/// digests and session keys, and a stored code, a code request, a session and a code check
/// built from them.
protocol SignInRulesFixture {}

extension SignInRulesFixture {
    var rules: SignInRules { SignInRules(policy: SignInPolicy()) }
    var now: Date { Date(timeIntervalSince1970: 1_800_000_000) }
    var seconds: Double { now.timeIntervalSince1970 }
    var phone: PhoneNumber { try! PhoneNumber(parsing: "(530) 555-0123") }
    var digest: Data { Data(repeating: 7, count: 32) }
    var existing: Data { Data(repeating: 1, count: 32) }
    var fresh: Data { Data(repeating: 2, count: 32) }

    func code(sentAgo: Double, failed: Int = 0, digest: Data? = nil) -> StoredCode {
        StoredCode(
            digest: digest ?? self.digest, sentAt: seconds - sentAgo, expiresAt: seconds - sentAgo + 600,
            failedAttempts: failed)
    }

    func issue(attach: Bool = true, client: String? = "10.0.0.1") -> CodeIssue {
        CodeIssue(
            phone: phone, codeDigest: digest, existingSession: existing, newSession: fresh,
            attachSessionDuringCooldown: attach, client: client, now: now)
    }

    func live(pending: String? = nil, userID: Int64? = nil, expiresIn: Double = 100) -> SessionRecord {
        SessionRecord(
            pendingPhone: pending, userID: userID, userPhone: userID.map { _ in "+15305550123" },
            lastSeenAt: seconds - 10, expiresAt: seconds + expiresIn, absoluteExpiresAt: seconds + 1000)
    }

    func check(session: Data? = Data(repeating: 1, count: 32), candidate: Data? = nil) -> CodeCheck {
        CodeCheck(
            session: session, phone: phone, candidateDigest: candidate ?? digest, signedInSession: fresh, now: now)
    }
}
