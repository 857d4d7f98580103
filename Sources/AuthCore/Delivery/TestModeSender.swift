import DeliveryCore
import Logging

/// The original API's test mode: no message goes anywhere and every code is
/// ``OneTimeCode/testMode`` (`123456`). Only for a server bound to a loopback address, which
/// the app enforces at start-up.
public struct TestModeSender: CodeSender {
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func send(_ message: CodeMessage) async throws -> DeliveryReport {
        let what = message.channel == .voice ? "no call placed" : "no text sent"
        logger.notice("Test mode: \(what); the code is 123456", metadata: ["to": "\(message.to.masked)"])
        return DeliveryReport(providerID: nil, status: .queued)
    }
}

extension OneTimeCode {
    /// The code every sign-in gets in test mode.
    public static let testMode = OneTimeCode("123456")!
}
