import AsyncHTTPClient
import AuthCore
import DeliveryCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Twilio's REST API with HTTP basic auth: a text is `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
/// with the form fields `To`, `From` or `MessagingServiceSid`, and `Body`; a call is
/// `POST …/Calls.json` with `To`, `From` and the call's TwiML inline in `Twiml` (so no server of
/// ours has to answer Twilio during the call). With a status callback base, each asks Twilio to
/// report back at `StatusCallback` (the base and the send's ``SendReference``).
public struct TwilioSender: CodeSender {
    public struct Configuration: Sendable, Equatable {
        /// Who the text comes from: a Twilio number, or a Messaging Service that picks one.
        public enum Sender: Sendable, Equatable {
            case number(String)
            case messagingService(String)
        }

        public var accountSID: String
        public var authToken: String
        public var sender: Sender
        /// The number calls come from (`TWILIO_FROM_NUMBER`); a Messaging Service cannot place
        /// calls, so without one no call is offered.
        public var callerID: String?
        /// Where Twilio reports each send's status, up to the reference: for example
        /// `https://login.example.com/callbacks/twilio/`. `nil`: no reports are asked for.
        public var statusCallbackBase: String?
        /// Twilio's API, or a stand-in (tests, a proxy).
        public var apiBase: String
        /// Deadline for a send, both attempts included.
        public var timeout: TimeAmount

        public init(
            accountSID: String, authToken: String, sender: Sender, callerID: String? = nil,
            statusCallbackBase: String? = nil, apiBase: String = "https://api.twilio.com",
            timeout: TimeAmount = .seconds(5)
        ) {
            self.accountSID = accountSID
            self.authToken = authToken
            self.sender = sender
            if case .number(let number) = sender { self.callerID = callerID ?? number } else { self.callerID = callerID }
            self.statusCallbackBase = statusCallbackBase
            self.apiBase = apiBase
            self.timeout = timeout
        }

        /// From `TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`, `TWILIO_FROM_NUMBER` or
        /// `TWILIO_MESSAGING_SERVICE_SID`, and optionally `TWILIO_API_BASE`; throws naming
        /// what is missing.
        public init(environment: [String: String]) throws(SMSConfigurationError) {
            func value(_ name: String) -> String? {
                environment[name].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            }
            let missing = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"].filter { value($0) == nil }
            guard missing.isEmpty, let sid = value("TWILIO_ACCOUNT_SID"), let token = value("TWILIO_AUTH_TOKEN") else {
                throw SMSConfigurationError("Twilio needs \(missing.joined(separator: " and ")) in the environment.")
            }
            let sender: Sender
            if let service = value("TWILIO_MESSAGING_SERVICE_SID") {
                sender = .messagingService(service)
            } else if let number = value("TWILIO_FROM_NUMBER") {
                sender = .number(number)
            } else {
                throw SMSConfigurationError(
                    "Twilio needs TWILIO_FROM_NUMBER or TWILIO_MESSAGING_SERVICE_SID in the environment.")
            }
            let base = value("TWILIO_API_BASE") ?? "https://api.twilio.com"
            guard let url = URL(string: base), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                throw SMSConfigurationError("TWILIO_API_BASE must be an http(s) URL.")
            }
            self.init(
                accountSID: sid, authToken: token, sender: sender, callerID: value("TWILIO_FROM_NUMBER"), apiBase: base)
        }
    }

    private let configuration: Configuration
    /// The HTTP side, with the retry rule and the logger.
    private let client: ProviderClient

    public init(
        configuration: Configuration, client: HTTPClient? = nil, logger: Logger,
        retryDelay: Duration = .milliseconds(500)
    ) {
        self.configuration = configuration
        self.client = ProviderClient(
            client: client ?? ProviderClient.http, timeout: configuration.timeout, retryDelay: retryDelay,
            logger: logger)
    }

    public var channels: Set<DeliveryChannel> { configuration.callerID == nil ? [.sms] : [.sms, .voice] }

    public func send(_ message: CodeMessage) async throws -> DeliveryReport {
        let base =
            configuration.apiBase.hasSuffix("/") ? String(configuration.apiBase.dropLast()) : configuration.apiBase
        var fields = [("To", message.to.e164)]
        let resource: String
        switch message.content {
        case .text(let body):
            resource = "Messages"
            switch configuration.sender {
            case .number(let number): fields.append(("From", number))
            case .messagingService(let service): fields.append(("MessagingServiceSid", service))
            }
            fields.append(("Body", body))
        case .call(let script):
            guard let callerID = configuration.callerID else {
                throw DeliveryError(reason: "Twilio places calls only with TWILIO_FROM_NUMBER", kind: .refused)
            }
            resource = "Calls"
            fields += [("From", callerID), ("Twiml", script.twiml)]
        }
        if let callbackBase = configuration.statusCallbackBase {
            fields.append(("StatusCallback", callbackBase + message.reference.hex))
            if message.channel == .voice {
                fields += ["initiated", "ringing", "answered", "completed"].map { ("StatusCallbackEvent", $0) }
            }
        }
        let form = fields.map { "\($0.0)=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
        let credentials = Data("\(configuration.accountSID):\(configuration.authToken)".utf8).base64EncodedString()
        let headers: HTTPHeaders = [
            "Authorization": "Basic \(credentials)",
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        ]
        let sid = Self.percentEncoded(configuration.accountSID)
        let answer = try await client.post(
            url: "\(base)/2010-04-01/Accounts/\(sid)/\(resource).json", headers: headers,
            body: ByteBuffer(string: form), provider: "Twilio", describe: Self.describe)
        let report = Self.report(answer, channel: message.channel)
        client.logger.info(
            "Twilio accepted the \(message.channel == .voice ? "call" : "message")",
            metadata: ["to": "\(message.to.masked)", "sid": "\(report.providerID ?? "?")"])
        return report
    }

    /// What Twilio's answer to a send says: the new resource's `sid` and `status` (`queued`,
    /// `accepted`), read as a status callback would be; just `queued` if it says nothing we know.
    static func report(_ answer: ProviderClient.Answer, channel: DeliveryChannel) -> DeliveryReport {
        let object = try? JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any]
        let sid = object?["sid"] as? String
        let status = object?["status"] as? String ?? "queued"
        let fields =
            channel == .voice
            ? [("CallSid", sid ?? ""), ("CallStatus", status)] : [("MessageSid", sid ?? ""), ("MessageStatus", status)]
        return (try? StatusCallback.twilio(fields)) ?? DeliveryReport(providerID: nil, status: .queued)
    }

    /// Twilio's error JSON (`code`, `message`, `more_info`) for the log, with every run of six
    /// or more digits hidden: the message may quote the number or the text, which holds the
    /// sign-in code.
    static func describe(_ answer: ProviderClient.Answer) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(answer.body.readableBytesView)) as? [String: Any]
        var parts = ["HTTP \(answer.status.code)"]
        if let code = object?["code"] { parts.append("Twilio error \(code)") }
        if let text = object?["message"] as? String { parts.append(redactDigits(text)) }
        if let link = object?["more_info"] as? String { parts.append(link) }
        return parts.joined(separator: ": ")
    }

    static func redactDigits(_ text: String) -> String {
        text.replacingOccurrences(of: "\\+?[0-9]{6,}", with: "[digits]", options: .regularExpression)
    }

    /// Form encoding: everything but unreserved characters percent-encoded (`+` in `+1530…`
    /// must not become a space).
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// The SMS configuration is incomplete or wrong; the message says what to set.
public struct SMSConfigurationError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
