import Foundation
import Testing

@testable import AuthCore

/// Times read back that lie after now: within a minute another instance's clock may be ahead;
/// beyond it the clock was set back, and what began then counts as gone.
@Suite("Stored times after now")
struct ClockSkewTests {
    let now = 1_800_000_000.0

    @Test(
        "a code or passkey challenge made up to a minute ahead is live; further ahead, or expired, it is not",
        arguments: [(-30.0, true), (0, true), (60, true), (61, false), (3600, false), (-700, false)])
    func live(_ madeIn: Double, _ live: Bool) {
        let code = StoredCode(
            digest: Data(count: 32), sentAt: now + madeIn, expiresAt: now + madeIn + 600, failedAttempts: 0)
        #expect(code.isLive(at: now) == live)
        let challenge = PasskeyChallenge(
            purpose: .signIn, challenge: Data(count: 32), userID: nil, createdAt: now + madeIn,
            expiresAt: now + madeIn + 300)
        #expect(challenge.isLive(at: now) == live)
    }
}
