import DeliveryCore
import Foundation

/// A text or call as stored: where it went, how, and what its provider last reported.
public struct SendRecord: Sendable, Equatable {
    public var reference: SendReference
    public var phone: String
    public var channel: DeliveryChannel
    public var sentAt: Double
    /// The provider's id for it, once the provider answered or called back.
    public var providerID: String?
    public var status: DeliveryStatus
    /// When ``status`` was reported; `nil` while it is still `sending`.
    public var statusAt: Double?
    public var errorCode: String?

    public init(
        reference: SendReference, phone: String, channel: DeliveryChannel, sentAt: Double, providerID: String? = nil,
        status: DeliveryStatus = .sending, statusAt: Double? = nil, errorCode: String? = nil
    ) {
        self.reference = reference
        self.phone = phone
        self.channel = channel
        self.sentAt = sentAt
        self.providerID = providerID
        self.status = status
        self.statusAt = statusAt
        self.errorCode = errorCode
    }
}

extension SendRecord {
    /// A send as its columns hold it; a value the code does not know (a channel, a status, a
    /// reference that is not 32 hex digits) is ``StoredDataCorrupt`` for that request.
    public static func stored(
        reference: String, phone: String, channel: String, sentAt: Double, providerID: String?, status: String,
        statusAt: Double?, errorCode: String?
    ) throws -> SendRecord {
        guard let parsedReference = SendReference(Substring(reference)),
            let parsedChannel = DeliveryChannel(rawValue: channel), let parsedStatus = DeliveryStatus(rawValue: status)
        else { throw StoredDataCorrupt("a send with reference, channel or status not known: \(channel) \(status)") }
        return SendRecord(
            reference: parsedReference, phone: phone, channel: parsedChannel, sentAt: sentAt, providerID: providerID,
            status: parsedStatus, statusAt: statusAt, errorCode: errorCode)
    }
}
