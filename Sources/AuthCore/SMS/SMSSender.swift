import Foundation

/// One text message to deliver.
public struct SMSMessage: Sendable, Equatable {
    /// The recipient.
    public let to: PhoneNumber
    /// The text, with the code in it.
    public let body: String

    public init(to: PhoneNumber, body: String) {
        self.to = to
        self.body = body
    }
}

/// Delivers text messages. Implementations: the outbox file (default, for self-hosted demos and
/// tests) and, later, real providers. Sign-in depends only on this protocol.
public protocol SMSSender: Sendable {
    /// Delivers `message` or throws ``SMSDeliveryError``; must not log the message body, which
    /// holds a live code.
    func send(_ message: SMSMessage) async throws
}

/// Delivery did not happen (or may not have); the sign-in that asked for it is rolled back.
public struct SMSDeliveryError: Error, CustomStringConvertible {
    /// What went wrong, for the log (never containing the code).
    public let reason: String
    /// The provider did not answer in time: the text may still go out, and be billed, so it
    /// stays counted against the limits and the budget.
    public let mayHaveBeenSent: Bool

    public init(reason: String, mayHaveBeenSent: Bool = false) {
        self.reason = reason
        self.mayHaveBeenSent = mayHaveBeenSent
    }

    public var description: String { "SMS delivery failed: \(reason)" }
}

/// Writes the text of sign-in messages.
///
/// The last line is the origin-bound form from the WebKit/Chrome "origin-bound one-time codes"
/// proposal (`@example.com #123456`): iOS and Android then offer the code for autofill only on
/// that site, which stops a phishing page from getting it autofilled.
public struct SMSMessageComposer: Sendable {
    /// Product name in the first line, e.g. "Phone Login"; none gives the plain wording.
    public let appName: String?
    /// The web origin's host, e.g. `login.example.com`.
    public let domain: String

    public init(appName: String? = nil, domain: String = "localhost") {
        self.appName = appName.flatMap { $0.isEmpty ? nil : $0 }
        self.domain = domain
    }

    /// The message body for `code`.
    public func body(for code: OneTimeCode) -> String {
        let name = appName.map { " \($0)" } ?? ""
        return "\(code.digits) is your\(name) verification code.\n\n@\(domain) #\(code.digits)"
    }
}
