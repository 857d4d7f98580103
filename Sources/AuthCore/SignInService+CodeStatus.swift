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
    }

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
        let code = try await store.read(rules.resendWaitReads(phone)).code
        let now = clock()
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
            })
    }
}
