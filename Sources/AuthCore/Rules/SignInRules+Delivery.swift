import DeliveryCore
import Foundation

/// What recording a provider's report came to.
public enum DeliveryRecorded: Sendable, Equatable {
    /// No send has this reference (never, or purged since): the callback is answered 404.
    case unknownSend
    /// The report names a different message or call than the one on record under this
    /// reference: nothing is recorded, answered 404 like an unknown send.
    case otherMessage
    /// The send's status is now `status`; `changed` is false for a replay or a report that came
    /// after a later one (nothing was written).
    case recorded(SendRecord, changed: Bool)
}

extension SignInRules {
    // MARK: Recording a delivery

    /// What ``recordDelivery(_:for:at:given:)`` needs: the send, locked so that two reports of it
    /// are decided one after the other.
    public func deliveryReads(_ reference: SendReference) -> SingleRead<SendRecord?> {
        SingleRead(locks: [.send(reference)]) { $0.send(reference) }
    }

    /// Records what a provider reported of the send named `reference`, only ever moving its
    /// status forward (``DeliveryStatus/advanced(to:)``): a replayed report, or one that arrives
    /// after a later one, changes nothing. The provider's id, once known, must match every later
    /// report's.
    public func recordDelivery(
        _ report: DeliveryReport, for reference: SendReference, at now: Date, given found: SendRecord?
    ) -> AuthDecision<DeliveryRecorded> {
        guard var send = found else { return AuthDecision(.unknownSend) }
        if let known = send.providerID, let given = report.providerID, known != given {
            return AuthDecision(.otherMessage)
        }
        let newID = send.providerID == nil ? report.providerID : nil
        guard let status = send.status.advanced(to: report.status) else {
            guard let newID else { return AuthDecision(.recorded(send, changed: false)) }
            send.providerID = newID
            return AuthDecision(
                .recorded(send, changed: false),
                changes: [
                    .recordDelivery(
                        reference: reference,
                        report: DeliveryReport(providerID: newID, status: send.status, errorCode: send.errorCode),
                        at: send.statusAt ?? now.timeIntervalSince1970)
                ])
        }
        send.providerID = send.providerID ?? newID
        send.status = status
        send.statusAt = now.timeIntervalSince1970
        send.errorCode = status.didNotArrive ? report.errorCode : nil
        return AuthDecision(
            .recorded(send, changed: true),
            changes: [
                .recordDelivery(
                    reference: reference,
                    report: DeliveryReport(providerID: newID, status: status, errorCode: send.errorCode),
                    at: now.timeIntervalSince1970)
            ])
    }
}
