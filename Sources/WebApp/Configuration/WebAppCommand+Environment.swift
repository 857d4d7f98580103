import Foundation

/// Options from the environment: every option may also come from `WEBAPP_` plus its name in
/// capitals (`--data-dir` from `WEBAPP_DATA_DIR`), a flag from `WEBAPP_HTTPS=true`; a flag on the
/// command line wins. Done before ArgumentParser sees the arguments, so `--help`, validation and
/// errors are the same wherever a value came from.
extension WebAppCommand {
    /// The options that may come from `WEBAPP_*` variables, and the flags among them.
    static let environmentOptions =
        [
            "host", "port", "data-dir", "db", "sms", "sms-webhook-url", "sms-outbox", "templates", "locales", "public",
            "sms-domain", "app-name", "phone-regions", "log-level", "log-format", "webhooks", "admins",
        ] + LimitOptions.names + ConnectionOptions.names + GatewayOptions.names + PasskeyOptions.names
        + OIDCOptions.names
    static let environmentFlags = ["https", "trust-proxy", "no-passkeys"]

    /// The command line with `WEBAPP_*` settings added for options it does not give itself.
    static func arguments(_ given: [String], environment: [String: String]) -> [String] {
        func variable(_ option: String) -> String {
            "WEBAPP_" + option.uppercased().replacingOccurrences(of: "-", with: "_")
        }
        func isGiven(_ option: String) -> Bool {
            given.contains { $0 == "--\(option)" || $0.hasPrefix("--\(option)=") }
        }
        var extra: [String] = []
        for option in environmentOptions where !isGiven(option) {
            if let value = environment[variable(option)] { extra += ["--\(option)", value] }
        }
        for flag in environmentFlags where !isGiven(flag) {
            if let value = environment[variable(flag)], ["1", "true", "yes"].contains(value.lowercased()) {
                extra.append("--\(flag)")
            }
        }
        return extra + given
    }
}
