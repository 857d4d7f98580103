import DeliveryCore
import Foundation

/// What the Verify page says about the code out for a number, read in one round trip.
extension SignInService {
    /// The code's state as a person needs it: when to ask for another, how many tries are left.
    public struct CodeStatus: Sendable, Equatable {
        /// Seconds until another code may be asked for (0: now).
        public let resendWait: Int
        /// Tries the code has left; `nil` when no live code is out.
        public let triesLeft: Int?
        /// Seconds until the code out expires; `nil` when no live code is out.
        public let expiresIn: Int?
        /// Seconds since the last code to the number was sent; `nil` when none is on record.
        public var sentAgo: Int? = nil
        /// How the last code went (text or call) and what its provider reported; `nil` when no
        /// code is on record (or its send record is purged).
        public var delivery: Delivery? = nil
        /// Seconds until sign-in to the number unlocks, when too many wrong codes locked it; no
        /// new code (text or call) goes to it meanwhile.
        public var lockedFor: Int? = nil
    }

    /// How recent a text or call must be for a second tap on the button that asked for it to
    /// be that same tap again (a slow network, a double tap) rather than a new request.
    public static let sameTapWithin = 5

    /// What is known of the last code's text or call.
    public struct Delivery: Sendable, Equatable {
        public let channel: DeliveryChannel
        public let status: DeliveryStatus
        /// Seconds since the provider reported ``status``; `nil` while it is still `sending`.
        public let reportedAgo: Int?
        public let errorCode: String?
    }

    /// Seconds until `phone` may be sent another code (0 when it may now).
    public func resendWait(for phone: PhoneNumber) async throws -> Int {
        try await codeStatus(for: phone).resendWait
    }

    /// The status of the code out for `phone`, so a wrong try can be answered with the tries
    /// left ("You have 3 tries left.") as the best sign-in pages do.
    public func codeStatus(for phone: PhoneNumber) async throws -> CodeStatus {
        let now = clock()
        let found = try await store.read(rules.codeStatusReads(phone, now: now))
        let code = found.code
        let triesLeft = rules.triesLeft(code, now: now)
        return CodeStatus(
            resendWait: wholeSeconds(rules.resendWait(code, now: now)), triesLeft: triesLeft,
            expiresIn: triesLeft == nil
                ? nil : code.map { wholeSeconds(from: now, to: Date(timeIntervalSince1970: $0.expiresAt)) },
            sentAgo: code.map { max(0, Int(now.timeIntervalSince1970 - $0.sentAt)) },
            delivery: code?.send.map { send in
                Delivery(
                    channel: send.channel, status: send.status,
                    reportedAgo: send.statusAt.map { max(0, Int(now.timeIntervalSince1970 - $0)) },
                    errorCode: send.errorCode)
            },
            lockedFor: rules.lockedUntil(given: found).map { max(1, wholeSeconds(from: now, to: $0)) })
    }

    /// The last hour's conversion and delivery rates, into the metrics, and a warning in the log
    /// for each below its mark (the operators' watch calls this every few minutes).
    /// `reportsExpected`: the provider reports deliveries (``SignInRules/health(given:reportsExpected:)``).
    @discardableResult
    public func checkHealth(reportsExpected: Bool = false) async throws -> SignInHealth {
        let health = rules.health(
            given: try await store.read(rules.healthReads(now: clock())), reportsExpected: reportsExpected)
        metrics.health(
            health, conversionLow: health.conversion.map { $0 < policy.warnConversionBelow } ?? false,
            deliveryLow: health.delivery.map { $0 < policy.warnDeliveryBelow } ?? false)
        for warning in health.warnings { logger.warning("Sign-in health: \(warning)") }
        return health
    }

    /// What the JSON API's `GET /verifications/{verification_id}` answers: the code that id
    /// holds, how it went out and what its provider reported.
    public struct VerificationStatus: Sendable, Equatable {
        public let phone: PhoneNumber
        public let channel: DeliveryChannel
        public let status: DeliveryStatus
        public let errorCode: String?
        public let sentAt: Date
        public let expiresIn: Int
        public let resendWait: Int
    }

    /// The code `verificationID` holds. An id that is malformed, unknown, or whose code is gone
    /// (used, replaced or purged) is ``SignInError/codeRequestedElsewhere`` (404), the same for each.
    public func verificationStatus(id verificationID: String) async throws -> VerificationStatus {
        guard let id = SessionToken(verificationID),
            let held = try await store.read(rules.heldCodeReads(holder: id.storageKey))
        else { throw SignInError.codeRequestedElsewhere }
        guard let phone = try? PhoneNumber(parsing: held.phone) else {
            throw StoredDataCorrupt("a code for a number that no longer parses")
        }
        let now = clock()
        return VerificationStatus(
            phone: phone, channel: held.code.send?.channel ?? .sms, status: held.code.send?.status ?? .sending,
            errorCode: held.code.send?.errorCode, sentAt: Date(timeIntervalSince1970: held.code.sentAt),
            expiresIn: held.code.isLive(at: now.timeIntervalSince1970)
                ? wholeSeconds(from: now, to: Date(timeIntervalSince1970: held.code.expiresAt)) : 0,
            resendWait: wholeSeconds(rules.resendWait(held.code, now: now)))
    }
}

extension SignInService.CodeStatus {
    /// Whether `error`, a new code by `channel` refused as too soon, answers a second tap on the
    /// same button or Resend tapped at once: the text or call sent within
    /// ``SignInService/sameTapWithin`` seconds is still on its way, nothing new was sent, and
    /// that is what to tell the person, not a refusal. A text or call already reported
    /// undelivered or unanswered is no such tap.
    public func isStillOnItsWay(after error: SignInError, by channel: DeliveryChannel) -> Bool {
        switch error {
        case .resendTooSoon, .callTooSoon: break
        default: return false
        }
        guard let delivery, delivery.channel == channel, !delivery.status.isFinal else { return false }
        return (sentAgo ?? .max) < SignInService.sameTapWithin
    }
}
