import Foundation

/// How sign-in is doing for everyone, over the last hour: what operators watch.
public struct SignInHealth: Sendable, Equatable {
    /// Codes verified / codes sent, among those that had their lifetime to be used; `nil` below
    /// the sample size.
    public var conversion: Double?
    /// Texts and calls delivered / those with a final status; `nil` below the sample size.
    public var delivery: Double?
    /// The sentences to warn with, one per rate below its mark.
    public var warnings: [String]
    /// Over half of the hour's sends had no delivery report after a code's lifetime, although
    /// the provider was asked for reports.
    public var reportsMissing: Bool

    public init(conversion: Double?, delivery: Double?, warnings: [String], reportsMissing: Bool = false) {
        self.conversion = conversion
        self.delivery = delivery
        self.warnings = warnings
        self.reportsMissing = reportsMissing
    }
}

extension SignInRules {
    // MARK: Operators' health

    /// What ``health(given:)`` reads (``HealthReads``).
    public func healthReads(now: Date) -> HealthReads {
        HealthReads(now: now.timeIntervalSince1970, rules: self)
    }

    /// The conversion and delivery rates, and a warning for each below its mark
    /// (``SignInPolicy/warnConversionBelow``, ``SignInPolicy/warnDeliveryBelow``) once the hour
    /// holds ``SignInPolicy/healthMinSample`` of what it counts.
    ///
    /// `reportsExpected`: the provider was asked to report each send's delivery (`--public-url`
    /// with Twilio or the webhook). Then more than half of the hour's sends left with no final
    /// report after a code's lifetime is a warning too: the provider accepts texts and never
    /// says what became of them (its callbacks do not reach us, or it does not send them).
    public func health(given found: HealthFound, reportsExpected: Bool = false) -> SignInHealth {
        var warnings: [String] = []
        var conversion: Double?
        let codes = found.conversion
        if codes.sent >= policy.healthMinSample {
            let rate = Double(codes.verified) / Double(codes.sent)
            conversion = rate
            if rate < policy.warnConversionBelow {
                warnings.append(
                    "Only \(codes.verified) of the last hour's \(codes.sent) codes were used (under \(Self.percent(policy.warnConversionBelow))): pumping, or codes that do not arrive"
                )
            }
        }
        var delivery: Double?
        let sends = found.deliveries
        if sends.delivered + sends.notDelivered >= policy.healthMinSample {
            let final = sends.delivered + sends.notDelivered
            let rate = Double(sends.delivered) / Double(final)
            delivery = rate
            if rate < policy.warnDeliveryBelow {
                warnings.append(
                    "Only \(sends.delivered) of the last hour's \(final) texts and calls were delivered (under \(Self.percent(policy.warnDeliveryBelow))): see the providers' error codes in sign_in_deliveries_total"
                )
            }
        }
        let reportsMissing =
            reportsExpected && sends.settled >= policy.healthMinSample && sends.unreported * 2 > sends.settled
        if reportsMissing {
            warnings.append(
                "\(sends.unreported) of the last hour's \(sends.settled) texts and calls have had no delivery report after \(Int(policy.codeLifetime / 60)) minutes: is the provider calling back /callbacks/?"
            )
        }
        return SignInHealth(
            conversion: conversion, delivery: delivery, warnings: warnings, reportsMissing: reportsMissing)
    }

    static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded()))%" }
}
