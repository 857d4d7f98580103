import EventsCore
import Foundation
import Logging

/// What an operator may do to a person's sign-in, from the console or the shell: the same rules
/// as the person's own (``SignInRules``), each change written with the event that names the
/// operator, in one transaction. Needs only the store (the shell has no text provider).
public struct OperatorActions: Sendable {
    let store: any AuthStore
    let rules: SignInRules
    let clock: @Sendable () -> Date
    let logger: Logger

    public init(
        store: any AuthStore, policy: SignInPolicy, clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "operator")
    ) {
        self.store = store
        self.rules = SignInRules(policy: policy)
        self.clock = clock
        self.logger = logger
    }

    /// "Sign out everywhere": every session of `user` ends (on every instance) and every
    /// remembered phone is forgotten, with `operatorEvent`. Returns how many ended.
    @discardableResult
    public func signOutEverywhere(of user: User, recording operatorEvent: Event) async throws -> Int {
        let rules = self.rules
        let now = clock()
        let applied = try await store.transaction(rules.placesReads(user: user.id, now: now)) { found in
            var decision = rules.signOutEverywhereElse(
                current: Data(), currentDevice: nil, of: user.id, at: now.timeIntervalSince1970, given: found)
            decision.changes.append(.recordEvent(operatorEvent))
            return decision
        }
        logger.info("An operator signed a person out everywhere", metadata: ["user": "\(user.id)"])
        return applied.outcome
    }

    /// Lifts the lock on `phone` after too many wrong codes: its wrong codes are forgotten (the
    /// person may sign in at once, with the code out or a new one), with `operatorEvent`.
    public func liftLock(on phone: PhoneNumber, recording operatorEvent: Event) async throws {
        try await store.apply([.liftLock(phone: phone.e164), .recordEvent(operatorEvent)])
        logger.info("An operator lifted a lock", metadata: ["phone": "\(phone.masked)"])
    }

    /// Records `operatorEvent` alone (an action whose change another transaction made).
    public func record(_ operatorEvent: Event) async throws {
        try await store.apply([.recordEvent(operatorEvent)])
    }

    /// Seconds the lock on `phone` has left; nil when it is not locked.
    public func lockedFor(_ phone: PhoneNumber) async throws -> Int? {
        let now = clock()
        let found = try await store.read(rules.codeStatusReads(phone, now: now))
        return rules.lockedUntil(given: found).map { max(1, wholeSeconds(from: now, to: $0)) }
    }

    /// When the number last proved itself (a sign-in by code, or the account moving onto it).
    public func numberProvedAt(_ phone: PhoneNumber) async throws -> Double? {
        try await store.read(
            SingleRead { $0.dormancy(phone: phone.e164, device: nil, now: clock().timeIntervalSince1970) }
        )?.numberProvedAt
    }
}

extension SignInService {
    /// The operators' actions on this service's store, rules and clock.
    public var operatorActions: OperatorActions {
        OperatorActions(store: store, policy: policy, clock: clock, logger: logger)
    }
}
