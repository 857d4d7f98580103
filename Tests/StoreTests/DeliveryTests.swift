import DeliveryCore
import Foundation
import Testing

@testable import AuthCore

/// Calls and delivery reports through the service, on every backend: what is stored per send,
/// and how it comes back.
@Suite("Calls and delivery status")
struct DeliveryTests {
    let phoneText = "(530) 555-0123"
    var phone: PhoneNumber { try! PhoneNumber(parsing: phoneText) }

    @Test("a send is recorded as the provider answered it; the status shows with the code", arguments: Backend.all)
    func recorded(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            f.clock.advance(by: 3)
            let status = try await f.service.codeStatus(for: phone)
            #expect(status.delivery?.channel == .sms)
            #expect(status.delivery?.status == .queued)
            #expect(status.delivery?.reportedAgo == 3)
            #expect(status.delivery?.errorCode == nil)
        }
    }

    @Test(
        "callbacks move the status forward only, in any order, replays change nothing; unknown and other ids refused",
        arguments: Backend.all)
    func callbacks(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            _ = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            let reference = try #require(f.sms.sent.last).reference
            let undelivered = DeliveryReport(providerID: "SM1", status: .undelivered, errorCode: "30003")
            let first = try await f.service.recordDelivery(undelivered, for: reference)
            guard case .recorded(let send, changed: true) = first else {
                Issue.record("not recorded: \(first)")
                return
            }
            #expect(send.status == .undelivered)
            for late in [
                DeliveryReport(providerID: "SM1", status: .sent), undelivered,
                DeliveryReport(providerID: "SM1", status: .delivered),
            ] {
                guard
                    case .recorded(let kept, changed: false) = try await f.service.recordDelivery(late, for: reference)
                else {
                    Issue.record("\(late) changed the send")
                    continue
                }
                #expect(kept.status == .undelivered)
            }
            #expect(
                try await f.service.recordDelivery(
                    DeliveryReport(providerID: "SM2", status: .delivered), for: reference)
                    == .otherMessage)
            #expect(
                try await f.service.recordDelivery(undelivered, for: SendReference.generate()) == .unknownSend)
            let status = try await f.service.codeStatus(for: phone)
            #expect(status.delivery?.status == .undelivered)
            #expect(status.delivery?.errorCode == "30003")
        }
    }

    @Test(
        "a text reported undelivered ends the cooldown: a call goes out at once and its code signs in",
        arguments: Backend.all)
    func callAfterUndelivered(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            let pending = try await f.service.requestCode(phoneInput: phoneText, session: nil)
            // A call asked for during the wait is refused in words for a call (issue 36).
            await #expect(throws: SignInError.callTooSoon(seconds: 30)) {
                _ = try await f.service.resendCode(session: pending.session, channel: .voice)
            }
            _ = try await f.service.recordDelivery(
                DeliveryReport(providerID: "SM1", status: .undelivered, errorCode: "30006"),
                for: try #require(f.sms.sent.last).reference)
            #expect(try await f.service.resendWait(for: phone) == 0)
            let called = try await f.service.resendCode(session: pending.session, channel: .voice)
            #expect(called.sent)
            let call = try #require(f.sms.sent.last)
            #expect(call.channel == .voice)
            guard case .call(let script) = call.content else {
                Issue.record("not a call")
                return
            }
            #expect(script.written.hasPrefix("Your verification code is "))
            #expect(try await f.service.codeStatus(for: phone).delivery?.channel == .voice)
            // The call started the cooldown again, for texts too.
            await #expect(throws: SignInError.resendTooSoon(seconds: 30)) {
                _ = try await f.service.resendCode(session: pending.session)
            }
            _ = try await f.service.verify(session: pending.session, codeInput: try #require(f.sms.lastCode))
        }
    }

    @Test("a call counts callCost texts in the budget", arguments: Backend.all)
    func callBudget(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            var policy = SignInPolicy()
            policy.maxTextsPerHour = 5
            policy.callCost = 2
            let f = ServiceFixture(database, policy: policy)
            // A call (2) and two texts (1 each) use 4 of 5: another call does not fit, a text does.
            _ = try await f.service.sendCode(phoneInput: "(530) 555-0101", channel: .voice)
            _ = try await f.service.sendCode(phoneInput: "(530) 555-0102")
            _ = try await f.service.sendCode(phoneInput: "(530) 555-0103")
            await #expect(throws: SignInError.callsUnavailable(seconds: 3600)) {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-0104", channel: .voice)
            }
            _ = try await f.service.sendCode(phoneInput: "(530) 555-0105")
            await #expect(throws: SignInError.textsUnavailable(seconds: 3600)) {
                _ = try await f.service.sendCode(phoneInput: "(530) 555-0106")
            }
            // When the call leaves the hour, two texts' worth is free again.
            f.clock.advance(by: 3601)
            _ = try await f.service.sendCode(phoneInput: "(530) 555-0107", channel: .voice)
            #expect(f.sms.sent.map(\.channel) == [.voice, .sms, .sms, .sms, .voice])
        }
    }

    @Test("a provider that places no calls: a call is refused before anything is stored", arguments: Backend.all)
    func noCalls(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            f.sms.placesCalls(false)
            #expect(!f.service.offersCalls)
            await #expect(throws: SignInError.channelUnavailable(.voice)) {
                _ = try await f.service.sendCode(phoneInput: phoneText, channel: .voice)
            }
            #expect(f.sms.sent.isEmpty)
            // Nothing counted: a text goes out at once.
            let text = try await f.service.sendCode(phoneInput: phoneText)
            #expect(text.sent)
        }
    }

    @Test("a call that cannot be placed is taken back like a text", arguments: Backend.all)
    func callFails(_ backend: Backend) async throws {
        try await withDatabase(backend) { database in
            let f = ServiceFixture(database)
            f.sms.fail(true)
            await #expect(throws: SignInError.callFailed) {
                _ = try await f.service.sendCode(phoneInput: phoneText, channel: .voice)
            }
            f.sms.fail(false)
            let call = try await f.service.sendCode(phoneInput: phoneText, channel: .voice)
            #expect(call.sent)
        }
    }
}
