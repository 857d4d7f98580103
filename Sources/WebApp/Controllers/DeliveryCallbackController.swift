import AuthCore
import Crypto
import DeliveryCore
import Foundation
import HTTPLite
import HTTPTypes
import Logging

/// Where the SMS provider reports what happened to each text and call: `POST
/// /callbacks/twilio/{reference}` (Twilio's status callbacks) and `POST
/// /callbacks/webhook/{reference}` (our webhook provider's), only for the provider in use.
///
/// Each request's signature is checked before anything in it is believed: Twilio's
/// `X-Twilio-Signature` over this send's own callback address and the form's fields, or the
/// webhook's `X-Signature-256` over the exact body bytes, which must name this send's reference. Unsigned or wrongly signed: 403, and
/// nothing recorded. A body that is not a status: 400. A reference no send has (or another
/// message's id): 404. A status only moves forward, so replays and late reports change nothing
/// and are answered 204 like the first.
struct DeliveryCallbackController: Sendable {
    static let twilioPath = "/callbacks/twilio"
    static let webhookPath = "/callbacks/webhook"

    /// How the provider in use proves a callback is its own.
    enum Provider: Sendable {
        case twilio(authToken: String, accountSID: String)
        case webhook(secret: SymmetricKey)
    }

    let signIn: SignInService
    let provider: Provider
    /// This app's address (`--public-url`): Twilio signs the full callback address it was given.
    let publicURL: String
    let logger: Logger

    func register(on router: Router<AppContext>) {
        switch provider {
        case .twilio: router.post(Self.twilioPath + "/:reference", use: twilio)
        case .webhook: router.post(Self.webhookPath + "/:reference", use: webhook)
        }
    }

    @Sendable func twilio(_ request: Request, _ context: AppContext) async throws -> Response {
        guard case .twilio(let authToken, let accountSID) = provider else { throw StatusError(.notFound) }
        let reference = try Self.reference(context)
        // No signature at all is refused before the body is read (whatever its type).
        guard request.headers[.twilioSignature] != nil else { throw refusedSignature("Twilio") }
        let fields = try request.formData().pairs.map { ($0.name, $0.value) }
        guard let signature = request.headers[.twilioSignature],
            TwilioSignature.isValid(
                signature, url: publicURL + Self.twilioPath + "/" + reference.hex, parameters: fields,
                authToken: authToken)
        else {
            // A Twilio Webhooks Rule signs with its own SharedKey (HMAC-SHA256) and says so in this
            // header; we check only the auth token's HMAC-SHA1, so say why everything is refused.
            if request.headers[.twilioWebhooksSignatureSettings] != nil {
                logger.warning(
                    "Twilio signed this callback with a Webhooks Rule's SharedKey, which is not supported: remove the rule for /callbacks/twilio/"
                )
            }
            throw refusedSignature("Twilio")
        }
        guard StatusCallback.isForAccount(fields, accountSID: accountSID) else {
            logger.warning("Refused a Twilio callback signed with our token but naming another account, or none")
            throw refusedSignature("Twilio")
        }
        return try await record(
            try Self.parsed { () throws(StatusCallback.Refused) in
                try StatusCallback.twilio(fields)
            }, for: reference)
    }

    @Sendable func webhook(_ request: Request, _ context: AppContext) async throws -> Response {
        guard case .webhook(let secret) = provider else { throw StatusError(.notFound) }
        let reference = try Self.reference(context)
        let body = Data(request.body.readableBytesView)
        guard let signature = request.headers[.webhookSignature],
            WebhookSignature.isValid(signature, body: body, secret: secret)
        else { throw refusedSignature("SMS webhook") }
        let (named, report) = try Self.parsed { () throws(StatusCallback.Refused) in
            try StatusCallback.webhook(body)
        }
        // The signature covers the body: one about another send is a replay at this address.
        guard named == reference else { throw refusedSignature("SMS webhook") }
        return try await record(report, for: reference)
    }

    private func record(_ report: DeliveryReport, for reference: SendReference) async throws -> Response {
        switch try await signIn.recordDelivery(report, for: reference) {
        case .unknownSend, .otherMessage:
            throw StatusError(.notFound, message: "No such text or call.")
        case .recorded(let send, let changed):
            if changed {
                logger.info(
                    "Delivery reported",
                    metadata: [
                        "channel": "\(send.channel)", "status": "\(send.status)",
                        "error_code": "\(send.errorCode ?? "")",
                    ])
            }
            return Response(status: .noContent)
        }
    }

    /// The path's reference; 404 unless it is one we could have made (32 lowercase hex digits).
    private static func reference(_ context: AppContext) throws -> SendReference {
        guard let text = context.parameters["reference"], let reference = SendReference(Substring(text)) else {
            throw StatusError(.notFound, message: "No such text or call.")
        }
        return reference
    }

    /// A callback's body parsed, or 400 saying why not.
    private static func parsed<Parsed>(_ parse: () throws(StatusCallback.Refused) -> Parsed) throws -> Parsed {
        do {
            return try parse()
        } catch {
            throw StatusError(.badRequest, message: "Not a delivery status: \(error.description).")
        }
    }

    private func refusedSignature(_ provider: String) -> StatusError {
        logger.warning("Delivery callback refused: missing or wrong signature", metadata: ["provider": "\(provider)"])
        return StatusError(.forbidden, message: "The request's signature is missing or wrong.")
    }
}

extension HTTPField.Name {
    /// Twilio's signature of a status callback (``DeliveryCore/TwilioSignature``).
    static let twilioSignature = Self(TwilioSignature.header)!
    /// Set by a Twilio Webhooks Rule, which signs with a SharedKey we do not check.
    static let twilioWebhooksSignatureSettings = Self("X-Twilio-Webhooks-Signature-Settings")!
    /// Our signed webhook's signature (``DeliveryCore/WebhookSignature``).
    static let webhookSignature = Self(WebhookSignature.header)!
}
