import Foundation

/// What ``SignInRules/health(given:)`` reads: the last hour's settled codes for every number,
/// and the final statuses of the sends in it (with those that never got one).
public struct HealthReads: ReadPlan {
    public let list: ReadList
    private let conversion: Read<Conversion>
    private let deliveries: Read<Deliveries>

    init(now: Double, rules: SignInRules) {
        var list = ReadList()
        conversion = list.settledCodes(rules.settledCodes("+1", now: now))
        deliveries = list.deliveries(since: now - rules.policy.breakerWindow, settledBy: now - rules.policy.codeLifetime)
        self.list = list
    }

    public func found(in answers: Answers) throws -> HealthFound {
        HealthFound(conversion: try answers[conversion], deliveries: try answers[deliveries])
    }
}

/// What ``HealthReads`` found.
public struct HealthFound: Sendable, Equatable {
    var conversion: Conversion
    var deliveries: Deliveries
}
