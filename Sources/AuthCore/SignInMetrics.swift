import DeliveryCore
import Metrics

/// The sign-in events an operator watches, as swift-metrics counters (the app exports them in
/// Prometheus format at `/metrics`):
///
/// - `sign_in_codes_sent_total`: texts handed to the SMS sender;
/// - `sign_in_code_delivery_failures_total`: texts the sender could not deliver;
/// - `sign_in_verifications_total{outcome}`: `signed_in`, `incorrect`, `expired`,
///   `too_many_attempts`, `locked`;
/// - `sign_in_limit_hits_total{limit}`: `phone`, `client`, `exchange`, `budget`, `resend_cooldown`,
///   `failures`, `client_failures`, `client_sign_ins`,
///   `client_passkey_challenges`;
/// - `sign_in_passkeys_total{outcome}`: `registered`, `registration_refused`, `signed_in`,
///   `refused`, `counter_went_back`, `malformed`;
/// - `sign_in_deliveries_total{channel,status,error_code}`: texts and calls by the final status
///   their provider reported (`delivered`, `undelivered`, `failed`) and its error code (`none`);
/// - `sign_in_conversion_ratio`, `sign_in_delivery_ratio`: the last hour's codes used / codes
///   sent (those past their lifetime) and texts and calls delivered / with a final status, as of
///   the last health check (not set below the sample size);
/// - `sign_in_health_low{rate}`: 1 while `conversion` or `delivery` is below its mark, else 0;
///   `reports`: 1 while over half of the hour's sends have had no delivery report after a code's
///   lifetime (when the provider is asked for reports);
/// - `sms_provider_pauses_total{channel}`: pauses of sending after the provider failed in a row
///   (``SignInPolicy/providerFailuresToPause``); `sign_in_limit_hits_total{limit="provider_paused"}`
///   counts the codes refused during them;
/// - `sms_budget_remaining{window}`: texts left in the spend budget for the `hour` and the `day`,
///   as of this instance's last text.
public struct SignInMetrics: Sendable {
    private let factory: any MetricsFactory

    /// Counters made by `factory`; by default the process-wide `MetricsSystem` (no-op until
    /// bootstrapped).
    public init(factory: any MetricsFactory = MetricsSystem.factory) {
        self.factory = factory
    }

    func codeSent() { count("sign_in_codes_sent_total") }
    func deliveryFailed() { count("sign_in_code_delivery_failures_total") }
    func verification(_ outcome: String) { count("sign_in_verifications_total", ("outcome", outcome)) }
    func passkey(_ outcome: String) { count("sign_in_passkeys_total", ("outcome", outcome)) }
    func providerPaused(_ channel: DeliveryChannel) { count("sms_provider_pauses_total", ("channel", channel.rawValue)) }
    func limitHit(_ limit: String) { count("sign_in_limit_hits_total", ("limit", limit)) }
    func delivered(channel: DeliveryChannel, status: DeliveryStatus, errorCode: String?) {
        count(
            "sign_in_deliveries_total", ("channel", channel.rawValue), ("status", status.rawValue),
            ("error_code", errorCode ?? "none"))
    }

    func health(_ health: SignInHealth, conversionLow: Bool, deliveryLow: Bool) {
        if let conversion = health.conversion {
            Gauge(label: "sign_in_conversion_ratio", factory: factory).record(conversion)
        }
        if let delivery = health.delivery { Gauge(label: "sign_in_delivery_ratio", factory: factory).record(delivery) }
        Gauge(label: "sign_in_health_low", dimensions: [("rate", "conversion")], factory: factory)
            .record(conversionLow ? 1 : 0)
        Gauge(label: "sign_in_health_low", dimensions: [("rate", "delivery")], factory: factory)
            .record(deliveryLow ? 1 : 0)
        Gauge(label: "sign_in_health_low", dimensions: [("rate", "reports")], factory: factory)
            .record(health.reportsMissing ? 1 : 0)
    }

    func budgetRemaining(hour: Int, day: Int) {
        Gauge(label: "sms_budget_remaining", dimensions: [("window", "hour")], factory: factory).record(hour)
        Gauge(label: "sms_budget_remaining", dimensions: [("window", "day")], factory: factory).record(day)
    }

    private func count(_ label: String, _ dimensions: (String, String)...) {
        Counter(label: label, dimensions: dimensions, factory: factory).increment()
    }
}
