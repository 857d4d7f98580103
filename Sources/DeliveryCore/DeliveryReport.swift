/// What a provider said about one text or call it was asked to send: in its answer to the
/// send, or later at the status callback address.
public struct DeliveryReport: Sendable, Equatable {
    /// The provider's own id for the message or call (Twilio's `SM…` or `CA…`), when it gave one.
    public var providerID: String?
    public var status: DeliveryStatus
    /// The provider's error code when it could not deliver (Twilio's `30003`, "Unreachable
    /// destination handset"), digits and letters only, at most 16.
    public var errorCode: String?

    public init(providerID: String?, status: DeliveryStatus, errorCode: String? = nil) {
        self.providerID = providerID
        self.status = status
        self.errorCode = errorCode
    }
}
