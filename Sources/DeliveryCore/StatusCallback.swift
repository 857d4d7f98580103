import Foundation

/// A status callback's body, parsed into a ``DeliveryReport`` only once its signature is
/// checked. Anything not understood is refused whole (``Refused``), never half-recorded.
public enum StatusCallback {
    /// Why a callback's body was refused (answered 400).
    public struct Refused: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether a Twilio callback names our account (`AccountSid`, compared as bytes). A callback
    /// signed with our auth token but about another account's message, or naming none, is not
    /// ours to record.
    public static func isForAccount(_ parameters: [(String, String)], accountSID: String) -> Bool {
        let named = parameters.filter { $0.0 == "AccountSid" }
        return named.count == 1 && named[0].1.utf8.elementsEqual(accountSID.utf8)
    }

    /// Twilio's status callback for a message (`MessageSid`, `MessageStatus`) or a call
    /// (`CallSid`, `CallStatus`), with `ErrorCode` when it failed.
    public static func twilio(_ parameters: [(String, String)]) throws(Refused) -> DeliveryReport {
        func value(_ name: String) -> String? { parameters.last { $0.0 == name }?.1 }
        let status: DeliveryStatus
        let id: String?
        if let text = value("MessageStatus") {
            guard let known = messageStatuses[text] else { throw Refused("unknown MessageStatus") }
            (status, id) = (known, value("MessageSid") ?? value("SmsSid"))
        } else if let text = value("CallStatus") {
            guard let known = callStatuses[text] else { throw Refused("unknown CallStatus") }
            (status, id) = (known, value("CallSid"))
        } else {
            throw Refused("neither MessageStatus nor CallStatus")
        }
        return DeliveryReport(
            providerID: try providerID(id), status: status, errorCode: try errorCode(value("ErrorCode")))
    }

    /// Our webhook provider's callback: JSON `{"reference": "…", "status": "delivered",
    /// "provider_id": "…", "error_code": "…"}`, `status` one of ``DeliveryStatus``'s names past
    /// `sending`. The signature covers the body only, so the body names the send it is about
    /// (the `reference` the send carried): the caller checks it is the address's, so a signed
    /// report cannot be replayed at another send's address.
    public static func webhook(_ body: Data) throws(Refused) -> (SendReference, DeliveryReport) {
        struct Body: Decodable {
            let reference: String
            let status: String
            let provider_id: String?
            let error_code: String?
        }
        let decoded: Body
        do {
            decoded = try JSONDecoder().decode(Body.self, from: body)
        } catch {
            throw Refused("not a JSON object with a reference and a status")
        }
        guard let reference = SendReference(Substring(decoded.reference)) else { throw Refused("bad reference") }
        guard let status = DeliveryStatus(rawValue: decoded.status), status != .sending else {
            throw Refused("unknown status")
        }
        return (
            reference,
            DeliveryReport(
                providerID: try providerID(decoded.provider_id), status: status,
                errorCode: try errorCode(decoded.error_code))
        )
    }

    /// Twilio's message statuses (Messaging API, "Message resource": `status`).
    static let messageStatuses: [String: DeliveryStatus] = [
        "accepted": .queued, "scheduled": .queued, "queued": .queued, "sending": .queued, "sent": .sent,
        "delivered": .delivered, "read": .delivered, "undelivered": .undelivered, "failed": .failed,
        "canceled": .failed,
    ]

    /// Twilio's call statuses (Voice API, "Call resource": `status`). A completed call was
    /// answered (by a person or a voicemail) and read the code out.
    static let callStatuses: [String: DeliveryStatus] = [
        "queued": .queued, "initiated": .queued, "ringing": .sent, "in-progress": .sent, "completed": .delivered,
        "busy": .undelivered, "no-answer": .undelivered, "failed": .failed, "canceled": .failed,
    ]

    private static func providerID(_ text: String?) throws(Refused) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count <= 64, text.utf8.allSatisfy(isWordByte) else { throw Refused("bad provider id") }
        return text
    }

    private static func errorCode(_ text: String?) throws(Refused) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count <= 16, text.utf8.allSatisfy(isWordByte) else { throw Refused("bad error code") }
        return text
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
