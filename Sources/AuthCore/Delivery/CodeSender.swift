import DeliveryCore
import Foundation
import Wording

/// One code to deliver: by text, or by a call that reads it out.
public struct CodeMessage: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A text message's body.
        case text(String)
        /// What a call says.
        case call(CallScript)
    }

    /// The recipient.
    public let to: PhoneNumber
    public let content: Content
    /// Our name for this send: the provider reports its delivery at the status callback address
    /// that ends with it.
    public let reference: SendReference

    public init(to: PhoneNumber, content: Content, reference: SendReference = .generate()) {
        self.to = to
        self.content = content
        self.reference = reference
    }

    public var channel: DeliveryChannel {
        switch content {
        case .text: .sms
        case .call: .voice
        }
    }

    /// The text's body, or the call's words: what the outbox and the webhook carry. Holds a live
    /// code: never logged.
    public var words: String {
        switch content {
        case .text(let body): body
        case .call(let script): script.written
        }
    }
}

/// Delivers codes by text and, where the provider can, by call: the outbox file (default, for
/// self-hosted demos and tests), test mode, Twilio and a signed webhook. Sign-in depends only
/// on this protocol.
public protocol CodeSender: Sendable {
    /// The channels this sender can deliver on; a call is offered only when it holds `.voice`.
    var channels: Set<DeliveryChannel> { get }

    /// Delivers `message` or throws ``DeliveryError``; returns what the provider said of it
    /// (its id, and `queued` or `sent`). Must not log the message's words, which hold a live code.
    @discardableResult
    func send(_ message: CodeMessage) async throws -> DeliveryReport
}

extension CodeSender {
    public var channels: Set<DeliveryChannel> { [.sms, .voice] }
}

/// Delivery did not happen (or may not have); the sign-in that asked for it is rolled back.
public struct DeliveryError: Error, CustomStringConvertible {
    /// Whose failure it was: the provider's (its outage pauses sending for everyone, see
    /// ``SignInRules/providerFailed(_:given:now:)``) or this one message's.
    public enum Kind: Sendable, Equatable {
        /// The provider said no to this message (a 4xx: a number it will not text, a setting):
        /// says nothing of the provider's health, so it never pauses sending, and a number an
        /// attacker types cannot pause it for everyone.
        case refused
        /// No connection, a 5xx, a file that cannot be written: the provider is failing.
        case unavailable
        /// Sent, and no answer in time: the provider is failing, and the text may still go out.
        case timedOut
    }

    /// What went wrong, for the log (never containing the code).
    public let reason: String
    public let kind: Kind

    public init(reason: String, kind: Kind = .unavailable) {
        self.reason = reason
        self.kind = kind
    }

    /// The provider did not answer in time: the text may still go out, and be billed, so it
    /// stays counted against the limits and the budget.
    public var mayHaveBeenSent: Bool { kind == .timedOut }

    public var description: String { "Delivery failed: \(reason)" }
}

/// Writes what sign-in texts and calls say.
///
/// A text's last line is the origin-bound form from the WebKit/Chrome "origin-bound one-time
/// codes" proposal (`@example.com #123456`): iOS and Android then offer the code for autofill
/// only on that site, which stops a phishing page from getting it autofilled.
public struct MessageComposer: Sendable {
    /// Product name in the first line, e.g. "Phone Login"; none gives the plain wording.
    public let appName: String?
    /// The web origin's host, e.g. `login.example.com`.
    public let domain: String
    /// The words of texts and calls, in every language.
    public let wording: Wording

    public init(appName: String? = nil, domain: String = "localhost", wording: Wording) {
        self.appName = appName.flatMap { $0.isEmpty ? nil : $0 }
        self.domain = domain
        self.wording = wording
    }

    /// The text message body for `code`, in `language`; its last line (`@domain #code`) is the
    /// same in every language, as the origin-bound format requires.
    public func body(for code: OneTimeCode, in language: Language = .english) -> String {
        let words = wording[language]
        let first =
            appName.map { words("sms.bodyNamed", ["code": code.digits, "app": $0]) }
            ?? words("sms.body", ["code": code.digits])
        return "\(first)\n\n@\(domain) #\(code.digits)"
    }

    /// What a call says for `code`, in `language`: the digits one at a time, twice.
    public func call(for code: OneTimeCode, in language: Language = .english) -> CallScript {
        let words = wording[language]
        return CallScript(
            CallScript.Words(
                opening: appName.map { words("call.openingNamed", ["app": $0]) } ?? words("call.opening"),
                again: words("call.again"), againWritten: words("call.againWords"), closing: words("call.goodbye"),
                voice: words("call.voice")),
            digits: code.digits)
    }

    /// The text to an account's old number after "Change your number": the new number hidden but
    /// for its last four digits, and what to do if it wasn't them. No code, no link to tap.
    public func numberChangedNotice(to old: PhoneNumber, newNumber: PhoneNumber, in language: Language = .english)
        -> CodeMessage
    {
        let words = wording[language]
        let body = words(
            "sms.numberChanged",
            ["app": appName ?? domain, "phone": newNumber.hiddenNationalFormat, "domain": domain])
        return CodeMessage(to: old, content: .text(body))
    }

    /// The text of a code that moves an account onto the number it is sent to ("Change your
    /// number"): it says so, so that its holder, asked to read it out, knows what it gives away.
    public func numberChangeBody(for code: OneTimeCode, in language: Language = .english) -> String {
        let first = wording[language]("sms.bodyNumberChange", ["code": code.digits, "app": appName ?? domain])
        return "\(first)\n\n@\(domain) #\(code.digits)"
    }

    /// The message for `code` on `channel`, in `language`; `movesAccount`: the code moves an
    /// account onto this number (its text says so).
    public func message(
        for code: OneTimeCode, to phone: PhoneNumber, by channel: DeliveryChannel, in language: Language = .english,
        movesAccount: Bool = false
    ) -> CodeMessage {
        switch channel {
        case .sms:
            CodeMessage(
                to: phone,
                content: .text(movesAccount ? numberChangeBody(for: code, in: language) : body(for: code, in: language)))
        case .voice: CodeMessage(to: phone, content: .call(call(for: code, in: language)))
        }
    }
}
