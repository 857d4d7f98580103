import DeliveryCore
import Foundation
import Logging
import TestSupport
import Wording

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

/// A sender of texts and calls that keeps messages in memory, answers as a provider that
/// queued each one (`SM1`, `SM2`, … or `CA…` for calls), and can be told to fail.
final class RecordingSender: CodeSender, @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [CodeMessage] = []
    private var failing: DeliveryError.Kind?
    private var tries = 0
    private var callsPlaced = true

    var sent: [CodeMessage] { lock.withLock { messages } }
    /// Every send asked of this provider, failed ones included.
    var attempts: Int { lock.withLock { tries } }

    /// Fails every send from now on (`.unavailable`: as a provider that is down), or no more.
    func fail(_ value: Bool, kind: DeliveryError.Kind = .unavailable) { lock.withLock { failing = value ? kind : nil } }

    /// Whether this provider places calls (a Twilio Messaging Service alone does not).
    func placesCalls(_ value: Bool) { lock.withLock { callsPlaced = value } }

    var channels: Set<DeliveryChannel> { lock.withLock { callsPlaced ? [.sms, .voice] : [.sms] } }

    func send(_ message: CodeMessage) async throws -> DeliveryReport {
        try lock.withLock {
            tries += 1
            if let failing { throw DeliveryError(reason: "test failure", kind: failing) }
            messages.append(message)
            return DeliveryReport(
                providerID: (message.channel == .voice ? "CA" : "SM") + String(messages.count), status: .queued)
        }
    }

    /// The code in the last message, texted or called.
    var lastCode: String? {
        sent.last.flatMap { message in
            switch message.content {
            case .text(let body): body.split(separator: "#").last.map(String.init)
            case .call(let script): script.digits
            }
        }
    }
}

/// A service on a fresh database of one backend, with a movable clock and a recording SMS
/// sender.
struct ServiceFixture {
    let clock = TestClock()
    let sms = RecordingSender()
    let database: TestDatabase
    let service: SignInService

    init(_ database: TestDatabase, policy: SignInPolicy = SignInPolicy()) {
        self.database = database
        let clock = self.clock
        service = SignInService(
            store: database.auth, sms: sms, hasher: CodeHasher(secret: .random()),
            composer: MessageComposer(appName: nil, domain: "example.com", wording: .forTests), policy: policy,
            logger: Logger(label: "test"), clock: { clock.now })
    }

    /// A wrong code for the last message sent, a different one at each call: the same wrong code
    /// sent again is not counted as a new try.
    func wrongCode() -> String {
        let right = Int(sms.lastCode!)!
        return String(format: "%06d", (right + Int.random(in: 1..<1_000_000)) % 1_000_000)
    }
}
