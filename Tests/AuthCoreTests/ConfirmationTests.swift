import Foundation
import Testing

@testable import AuthCore

/// "Confirm it's you": which sessions hold a fresh proof, and where `next=` may lead.
@Suite("Confirm it's you: the rules")
struct ConfirmationTests {
    func session(_ method: SignInMethod, signedInAt: Double, user: Int64? = 1) -> SessionRecord {
        SessionRecord(
            pendingPhone: nil, userID: user, userPhone: "+15305550123", lastSeenAt: signedInAt,
            expiresAt: signedInAt + 3600, absoluteExpiresAt: signedInAt + 86_400, createdAt: signedInAt,
            method: method)
    }

    @Test(
        "a code or a passkey within the limit is fresh; a remembered browser never is, however recent",
        arguments: [
            (SignInMethod.code, 0.0, true), (.code, 600, true), (.code, 601, false), (.passkey, 30, true),
            (.passkey, 3600, false), (.rememberedDevice, 0, false), (.rememberedDevice, 5, false),
            (.code, -30, true),  // signed in on an instance whose clock is a little ahead
            (.code, -61, false),  // signed in "in the future": a clock moved back is no proof
        ])
    func freshness(_ method: SignInMethod, _ age: Double, _ fresh: Bool) {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(Confirmation.isFresh(session(method, signedInAt: 1_000_000 - age), now: now, within: 600) == fresh)
    }

    @Test("a pending session is no proof")
    func pending() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(!Confirmation.isFresh(session(.code, signedInAt: 1_000_000, user: nil), now: now, within: 600))
    }

    @Test(
        "next= is a path on this site, or Home",
        arguments: [
            ("/devices", "/devices"), ("/devices/passkeys/3/remove", "/devices/passkeys/3/remove"),
            ("/home?x=1", "/home?x=1"), ("//evil.example/x", "/home"), ("https://evil.example", "/home"),
            ("/\\evil.example", "/home"), ("evil", "/home"), ("", "/home"), ("/a b", "/home"),
            ("/\u{0}x", "/home"), ("/é", "/home"), ("/" + String(repeating: "a", count: 4096), "/home"),
        ])
    func next(_ raw: String, _ expected: String) {
        #expect(Confirmation.safeNext(raw) == expected)
    }

    @Test("no next= at all is Home")
    func noNext() {
        #expect(Confirmation.safeNext(nil) == "/home")
    }
}
