import Foundation
import Testing

@testable import DeliveryCore

@Suite("Status callbacks")
struct StatusCallbackTests {
    @Test(
        "Twilio's message statuses",
        arguments: [
            ("accepted", DeliveryStatus.queued), ("queued", .queued), ("sending", .queued), ("sent", .sent),
            ("delivered", .delivered), ("read", .delivered), ("undelivered", .undelivered), ("failed", .failed),
            ("canceled", .failed),
        ])
    func messages(_ twilio: String, _ ours: DeliveryStatus) throws {
        let report = try StatusCallback.twilio([("MessageSid", "SM0a1b"), ("MessageStatus", twilio)])
        #expect(report == DeliveryReport(providerID: "SM0a1b", status: ours))
    }

    @Test(
        "Twilio's call statuses",
        arguments: [
            ("queued", DeliveryStatus.queued), ("initiated", .queued), ("ringing", .sent), ("in-progress", .sent),
            ("completed", .delivered), ("busy", .undelivered), ("no-answer", .undelivered), ("failed", .failed),
            ("canceled", .failed),
        ])
    func calls(_ twilio: String, _ ours: DeliveryStatus) throws {
        let report = try StatusCallback.twilio([("CallSid", "CA99"), ("CallStatus", twilio)])
        #expect(report == DeliveryReport(providerID: "CA99", status: ours))
    }

    @Test("a Twilio callback is ours only when it names our account once, byte for byte")
    func account() {
        let ours = "AC0123456789abcdef0123456789abcdef"
        #expect(StatusCallback.isForAccount([("AccountSid", ours), ("MessageStatus", "sent")], accountSID: ours))
        for fields in [
            [("MessageStatus", "sent")], [("AccountSid", "AC" + String(repeating: "f", count: 32))],
            [("AccountSid", ours), ("AccountSid", "ACother")], [("AccountSid", ours.uppercased())],
            [("AccountSid", "")],
        ] {
            #expect(!StatusCallback.isForAccount(fields, accountSID: ours), "\(fields)")
        }
    }

    @Test("an error code is kept; the last value of a repeated field counts")
    func errorCode() throws {
        let report = try StatusCallback.twilio([
            ("MessageSid", "SM1"), ("MessageStatus", "sent"), ("MessageStatus", "undelivered"), ("ErrorCode", "30003"),
        ])
        #expect(report == DeliveryReport(providerID: "SM1", status: .undelivered, errorCode: "30003"))
    }

    @Test(
        "anything not understood is refused whole",
        arguments: [
            [("MessageSid", "SM1")], [("MessageSid", "SM1"), ("MessageStatus", "exploded")],
            [("CallSid", "CA1"), ("CallStatus", "Completed")],
            [("MessageSid", "SM1<script>"), ("MessageStatus", "sent")],
            [("MessageSid", String(repeating: "S", count: 65)), ("MessageStatus", "sent")],
            [("MessageSid", "SM1"), ("MessageStatus", "failed"), ("ErrorCode", "30003; DROP TABLE")],
            [("MessageSid", "SM1"), ("MessageStatus", "failed"), ("ErrorCode", String(repeating: "9", count: 17))],
        ])
    func refused(_ fields: [(String, String)]) {
        #expect(throws: StatusCallback.Refused.self) { try StatusCallback.twilio(fields) }
    }

    @Test("the webhook's JSON: the send's reference and our status names, past sending")
    func webhook() throws {
        let ref = "00112233445566778899aabbccddeeff"
        let (reference, report) = try StatusCallback.webhook(
            Data(#"{"reference":"\#(ref)","status":"undelivered","provider_id":"m-1","error_code":"E42"}"#.utf8))
        #expect(reference.hex == ref)
        #expect(report == DeliveryReport(providerID: "m-1", status: .undelivered, errorCode: "E42"))
        #expect(
            try StatusCallback.webhook(Data(#"{"reference":"\#(ref)","status":"delivered"}"#.utf8)).1
                == DeliveryReport(providerID: nil, status: .delivered))
        for bad in [
            "", "[]", "null", #"{"status":"delivered"}"#, #"{"reference":"x","status":"delivered"}"#,
            #"{"reference":"\#(ref)","status":"sending"}"#, #"{"reference":"\#(ref)","status":"DELIVERED"}"#,
            #"{"reference":"\#(ref)","status":1}"#, #"{"reference":"\#(ref)","status":"sent","provider_id":"a b"}"#,
            "{\"status\":\"sent\"", String(repeating: "[", count: 10_000),
        ] {
            #expect(throws: StatusCallback.Refused.self, "\(bad.prefix(40))") { try StatusCallback.webhook(Data(bad.utf8)) }
        }
    }
}
