import Crypto
import DeliveryCore
import Foundation
import HTTPLite
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import SMSProviders

@testable import WebApp

/// A stand-in for Twilio on 127.0.0.1: it speaks the two REST calls the app makes, the way
/// Twilio's API answers them, and calls back the way Twilio does.
///
/// - `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` and `…/Calls.json`, with HTTP basic
///   auth (401 and Twilio's error JSON, code 20003, otherwise) and a form: `To`, and `From` or
///   `MessagingServiceSid`, and `Body` (a message) or `Twiml` (a call); a missing field is 400
///   with code 21604 or 21603. Answer: 201 and the new resource, `sid` (`SM…` or `CA…`, 34
///   characters) and `status` `queued`.
/// - ``report(_:status:errorCode:)`` posts a status callback to the `StatusCallback` address the
///   send gave, with the fields Twilio sends and `X-Twilio-Signature` over that address and the
///   fields, under the auth token. The address is the app's public one (a proxy in front, as in
///   production); the fake delivers it to the app's real port (``deliverTo``).
final class FakeTwilio: @unchecked Sendable {
    struct Sent: Sendable {
        let resource: String
        let sid: String
        let fields: [(String, String)]
        func field(_ name: String) -> String? { fields.last { $0.0 == name }?.1 }
    }

    let accountSID = "AC0123456789abcdef0123456789abcdef"
    let authToken = "fake-twilio-auth-token"
    /// Where callbacks really go: the test server's base URL, set once it listens.
    var deliverTo = ""

    /// How the fake fails a resource (`Messages`, `Calls`), as Twilio in an outage would: a
    /// status with Twilio's error JSON, or no answer for a minute (``hangsEnded`` counts the
    /// hangs that ran their whole minute).
    enum Failure: Sendable {
        case status(HTTPResponse.Status)
        case hang
    }

    private let lock = NSLock()
    private var received: [Sent] = []
    private var failures: [String: Failure] = [:]
    private var asked: [String: Int] = [:]
    private var ended = 0

    /// Fails `resource` from now on, or (nil) no more.
    func fail(_ resource: String, _ failure: Failure?) { lock.withLock { failures[resource] = failure } }
    /// The requests for `resource` received, failed ones included.
    func attempts(_ resource: String) -> Int { lock.withLock { asked[resource] ?? 0 } }
    /// The hangs that ended: an answer the app gave before this grew was not kept waiting.
    var hangsEnded: Int { lock.withLock { ended } }
    private var server: HTTPServer<ClosureResponder<BasicRequestContext>>!
    private(set) var baseURL = ""

    var sent: [Sent] { lock.withLock { received } }

    static func start() async throws -> FakeTwilio {
        let fake = FakeTwilio()
        var logger = Logger(label: "fake-twilio")
        logger.logLevel = .critical
        fake.server = HTTPServer(
            responder: ClosureResponder { request, _ in try await fake.answerOrFail(request) },
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), logger: logger)
        let address = try await fake.server.start()
        fake.baseURL = "http://127.0.0.1:\(address.port!)"
        return fake
    }

    func stop() async { await server.shutdown() }

    /// The secret the webhook provider shares with the app (``webhookPath``).
    let webhookSecret = "fake-webhook-secret-0123456789"
    /// Where the fake also plays our webhook provider: it takes the signed JSON (401 unless the
    /// signature is right) and keeps its fields as a send (`resource` `Webhook`).
    let webhookPath = "/webhook"

    private func answerOrFail(_ request: Request) async throws -> Response {
        let resource = request.uri.hasSuffix("/Calls.json") ? "Calls" : "Messages"
        let failure: Failure? = lock.withLock {
            asked[resource, default: 0] += 1
            return failures[resource]
        }
        switch failure {
        case .status(let status):
            return Response(
                status: status, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"code": 20500, "message": "Internal Server Error", "status": \#(status.code)}"#))
        case .hang:
            try await Task.sleep(for: .seconds(60))
            lock.withLock { ended += 1 }
            return Response(status: .gatewayTimeout)
        case nil:
            return answer(request)
        }
    }

    private func answer(_ request: Request) -> Response {
        if request.uri == webhookPath { return webhook(request) }
        func error(_ status: HTTPResponse.Status, _ code: Int, _ message: String) -> Response {
            Response(
                status: status, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string: #"{"code": \#(code), "message": "\#(message)", "more_info": "https://www.twilio.com/docs/errors/\#(code)", "status": \#(status.code)}"#
                ))
        }
        let prefix = "/2010-04-01/Accounts/\(accountSID)/"
        guard request.method == .post, request.uri.hasPrefix(prefix),
            let resource = ["Messages.json": "Messages", "Calls.json": "Calls"][String(request.uri.dropFirst(prefix.count))]
        else { return error(.notFound, 20404, "The requested resource was not found") }
        let credentials = Data("\(accountSID):\(authToken)".utf8).base64EncodedString()
        guard request.headers[.authorization] == "Basic \(credentials)" else {
            return error(.unauthorized, 20003, "Authenticate")
        }
        guard let form = try? request.formData() else { return error(.badRequest, 20001, "Bad form") }
        let fields = form.pairs.map { ($0.name, $0.value) }
        guard form["To"] != nil else { return error(.badRequest, 21604, "A 'To' phone number is required.") }
        guard form["From"] != nil || (resource == "Messages" && form["MessagingServiceSid"] != nil) else {
            return error(.badRequest, 21603, "A 'From' phone number is required.")
        }
        guard resource == "Messages" ? form["Body"] != nil : form["Twiml"] != nil else {
            return error(.badRequest, 21602, "Message body is required.")
        }
        let sid = (resource == "Messages" ? "SM" : "CA") + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        lock.withLock { received.append(Sent(resource: resource, sid: sid, fields: fields)) }
        return Response(
            status: .created, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"sid": "\#(sid)", "status": "queued", "to": "\#(form["To"]!)"}"#))
    }

    private func webhook(_ request: Request) -> Response {
        let body = Data(request.body.readableBytesView)
        guard let signature = request.headers[HTTPField.Name(WebhookSignature.header)!],
            WebhookSignature.isValid(signature, body: body, secret: SymmetricKey(data: Data(webhookSecret.utf8))),
            let object = try? JSONSerialization.jsonObject(with: body) as? [String: String]
        else { return Response(status: .unauthorized) }
        lock.withLock {
            received.append(Sent(resource: "Webhook", sid: "", fields: object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
        return Response(status: .accepted)
    }

    /// Posts our webhook's status callback for `sent` to its `status_callback`, signed with
    /// `secret` (the shared one unless given).
    func reportByWebhook(_ sent: Sent, json: String, secret: String? = nil) async throws -> HTTPResponseStatus {
        guard let url = sent.field("status_callback"), let path = URLComponents(string: url)?.path else {
            throw TestFailure("the send gave no status_callback")
        }
        let body = Data(json.utf8)
        let signature = WebhookSignature.compute(
            body: body, secret: SymmetricKey(data: Data((secret ?? webhookSecret).utf8)))
        return try await Browser(baseURL: deliverTo).send(
            .POST, path, headers: ["Content-Type": "application/json", WebhookSignature.header: signature], body: body
        ).status
    }

    /// The status callback Twilio would post for `sent`: its fields, signed.
    func callback(
        _ sent: Sent, status: String, errorCode: String? = nil, signingWith token: String? = nil,
        account: String? = nil
    ) throws -> (path: String, fields: [(String, String)], signature: String) {
        guard let url = sent.field("StatusCallback"), let components = URLComponents(string: url) else {
            throw TestFailure("the send asked for no status callback")
        }
        var fields: [(String, String)] =
            sent.resource == "Messages"
            ? [
                ("AccountSid", accountSID), ("ApiVersion", "2010-04-01"), ("From", sent.field("From") ?? ""),
                ("MessageSid", sent.sid), ("MessageStatus", status), ("SmsSid", sent.sid), ("SmsStatus", status),
                ("To", sent.field("To") ?? ""),
            ]
            : [
                ("AccountSid", accountSID), ("ApiVersion", "2010-04-01"), ("CallSid", sent.sid),
                ("CallStatus", status), ("Direction", "outbound-api"), ("From", sent.field("From") ?? ""),
                ("To", sent.field("To") ?? ""),
            ]
        if let errorCode { fields.append(("ErrorCode", errorCode)) }
        if let account { fields = fields.map { $0.0 == "AccountSid" ? ($0.0, account) : $0 } }
        let signature = TwilioSignature.compute(url: url, parameters: fields, authToken: token ?? authToken)
        return (components.path, fields, signature)
    }

    /// Posts the status callback for `sent`, as Twilio would; the app's HTTP status.
    @discardableResult
    func report(_ sent: Sent, status: String, errorCode: String? = nil) async throws -> HTTPResponseStatus {
        let callback = try callback(sent, status: status, errorCode: errorCode)
        return try await post(callback.path, fields: callback.fields, signature: callback.signature)
    }

    /// Posts a form to the app as a status callback, with whatever signature is given.
    func post(_ path: String, fields: [(String, String)], signature: String?) async throws -> HTTPResponseStatus {
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        if let signature { headers.add(name: TwilioSignature.header, value: signature) }
        let body = fields.map { "\(Browser.encode($0.0))=\(Browser.encode($0.1))" }.joined(separator: "&")
        return try await Browser(baseURL: deliverTo).send(.POST, path, headers: headers, body: Data(body.utf8)).status
    }
}

/// Runs `body` with a test server sending through a fake Twilio (its callbacks under
/// `publicURL`, when given), the fake stopped afterwards. `timeout`: a send's deadline, long by
/// default so that a loaded machine never leaves a failed first attempt without its retry.
func withFakeTwilio(
    publicURL: String? = nil, messagingServiceOnly: Bool = false, timeout: TimeAmount = .seconds(120),
    configure: (inout AppConfiguration) -> Void = { _ in }, _ body: (TestServer, FakeTwilio) async throws -> Void
) async throws {
    let twilio = try await FakeTwilio.start()
    do {
        try await withServer({ configuration in
            configuration.sms = .twilio(
                TwilioSender.Configuration(
                    accountSID: twilio.accountSID, authToken: twilio.authToken,
                    sender: messagingServiceOnly ? .messagingService("MG1") : .number("+15005550006"),
                    apiBase: twilio.baseURL, timeout: timeout))
            configuration.publicURL = publicURL
            configure(&configuration)
        }) { server in
            twilio.deliverTo = server.baseURL
            try await body(server, twilio)
        }
    } catch {
        await twilio.stop()
        throw error
    }
    await twilio.stop()
}
