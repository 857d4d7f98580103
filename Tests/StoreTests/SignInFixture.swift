import Foundation
import Logging

@testable import AuthCore

/// A clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}

/// An SMS sender that keeps messages in memory and can be told to fail.
final class RecordingSMSSender: SMSSender, @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [SMSMessage] = []
    private var failing = false

    var sent: [SMSMessage] { lock.withLock { messages } }

    func fail(_ value: Bool) { lock.withLock { failing = value } }

    func send(_ message: SMSMessage) async throws {
        try lock.withLock {
            if failing { throw SMSDeliveryError(reason: "test failure") }
            messages.append(message)
        }
    }

    /// The code in the last message.
    var lastCode: String? {
        sent.last.flatMap { message in
            message.body.split(separator: "#").last.map(String.init)
        }
    }
}

/// A service on a fresh database of one backend, with a movable clock and a recording SMS
/// sender.
struct ServiceFixture {
    let clock = TestClock()
    let sms = RecordingSMSSender()
    let database: TestDatabase
    let service: SignInService

    init(_ database: TestDatabase, policy: SignInPolicy = SignInPolicy()) {
        self.database = database
        let clock = self.clock
        service = SignInService(
            store: database.auth, sms: sms, hasher: CodeHasher(secret: .random()),
            composer: SMSMessageComposer(appName: nil, domain: "example.com"), policy: policy,
            logger: Logger(label: "test"), clock: { clock.now })
    }

    /// A wrong code for the last message sent, a different one at each call: the same wrong code
    /// sent again is not counted as a new try.
    func wrongCode() -> String {
        let right = Int(sms.lastCode!)!
        return String(format: "%06d", (right + Int.random(in: 1..<1_000_000)) % 1_000_000)
    }
}
