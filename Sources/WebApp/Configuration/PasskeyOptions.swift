import ArgumentParser
import Foundation
import WebAuthnCore

/// The `webapp` options of passkeys. Passkeys are on whenever `--public-url` names a host
/// (not an IP address, which WebAuthn does not take as an RP ID: then they stay off): its host is the RP ID and the
/// address itself the one origin ceremonies may come from. For development,
/// `--public-url http://localhost:8080` works: browsers treat localhost as secure.
struct PasskeyOptions: ParsableArguments {
    @Flag(name: .customLong("no-passkeys"), help: "Offer no passkeys even with --public-url.")
    var off = false

    @Option(
        name: .customLong("apple-app-id"),
        help: """
            An iOS app allowed to use this site's passkeys (TEAMID.bundle.id; repeat, or a comma list, for several): \
            served in /.well-known/apple-app-site-association.
            """)
    var appleAppIDs: [String] = []

    @Option(
        name: .customLong("android-app"),
        help: """
            An Android app allowed to use this site's passkeys, as package=SHA256:FINGERPRINT (its signing \
            certificate's SHA-256, colon-separated hex; repeat, or a comma list, for several): served in \
            /.well-known/assetlinks.json.
            """)
    var androidApps: [String] = []

    /// The option names that may also come from `WEBAPP_*` variables (a comma list there).
    static let names = ["apple-app-id", "android-app"]

    /// Passkeys as the options and `publicURL` (checked already) say; `nil` when off.
    func configuration(publicURL: String?) throws -> PasskeyConfiguration? {
        // Each may be given several times, or as a comma list (from the environment).
        func list(_ values: [String]) -> [String] {
            values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                .filter { !$0.isEmpty }
        }
        let apps = try NativeApps(apple: list(appleAppIDs), android: list(androidApps))
        guard !off, let publicURL else {
            if !apps.isEmpty { throw ValidationError("--apple-app-id and --android-app need passkeys (--public-url).") }
            return nil
        }
        // An IP address is no RP ID: passkeys stay off (the start says so in the log), and the
        // address still serves what else it is for (delivery callbacks).
        guard let relyingParty = PasskeyConfiguration.relyingParty(publicURL: publicURL) else {
            if !apps.isEmpty {
                throw ValidationError(
                    "--apple-app-id and --android-app need passkeys, and passkeys need a --public-url with a host name, not an IP address."
                )
            }
            return nil
        }
        return PasskeyConfiguration(
            relyingParty: RelyingParty(
                id: relyingParty.id, origin: relyingParty.origin,
                appOrigins: apps.android.map { RelyingParty.androidOrigin(certificateSHA256: $0.certificateSHA256) }),
            apps: apps)
    }
}

/// Passkeys as configured: the site they belong to and the native apps that may use them.
struct PasskeyConfiguration: Sendable, Equatable {
    let relyingParty: RelyingParty
    var apps = NativeApps()

    /// The RP ID and origin of `publicURL` (`https://Login.Example.com:443` is RP ID
    /// `login.example.com`, origin `https://login.example.com`, as a browser serializes it);
    /// `nil` for an IP address or a URL without a host.
    static func relyingParty(publicURL: String) -> RelyingParty? {
        guard let components = URLComponents(string: publicURL), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, !host.contains(":"),
            !host.split(separator: ".").allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        return RelyingParty(id: host, origin: "\(scheme)://\(host)\(port)")
    }
}

/// The native apps that may use this site's passkeys (the original iOS app, an Android one):
/// what `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json` say.
struct NativeApps: Sendable, Equatable {
    struct Android: Sendable, Equatable {
        let package: String
        /// `AA:BB:…`, as assetlinks.json lists it.
        let fingerprint: String

        var certificateSHA256: [UInt8] {
            fingerprint.split(separator: ":").compactMap { UInt8($0, radix: 16) }
        }
    }

    var apple: [String] = []
    var android: [Android] = []

    var isEmpty: Bool { apple.isEmpty && android.isEmpty }

    init() {}

    /// Checks each: `TEAMID.bundle.id` (a 10-character team id), and
    /// `package=SHA256:AA:BB:…` (32 bytes of hex).
    init(apple: [String], android: [String]) throws {
        for id in apple {
            let parts = id.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10,
                parts[0].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") })
            else { throw ValidationError("--apple-app-id \(id.debugDescription) is not TEAMID.bundle.id.") }
        }
        self.apple = apple
        self.android = try android.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let hex = parts.count == 2 ? parts[1].replacingOccurrences(of: "SHA256:", with: "") : ""
            let bytes = hex.split(separator: ":")
            guard parts.count == 2, !parts[0].isEmpty,
                parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }),
                bytes.count == 32, bytes.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) })
            else {
                throw ValidationError(
                    "--android-app \(text.debugDescription) is not package=SHA256:AA:BB:… (32 bytes).")
            }
            return Android(package: parts[0], fingerprint: hex.uppercased())
        }
    }

    /// `/.well-known/apple-app-site-association`: the apps whose passkeys are this site's.
    var appleAssociation: [UInt8]? {
        apple.isEmpty
            ? nil : (try? JSONSerialization.data(withJSONObject: ["webcredentials": ["apps": apple]])).map { Array($0) }
    }

    /// `/.well-known/assetlinks.json`: the apps that may sign in with this site's credentials.
    var assetLinks: [UInt8]? {
        guard !android.isEmpty else { return nil }
        let statements: [[String: Any]] = android.map { app in
            [
                "relation": ["delegate_permission/common.get_login_creds"],
                "target": [
                    "namespace": "android_app", "package_name": app.package,
                    "sha256_cert_fingerprints": [app.fingerprint],
                ],
            ]
        }
        return (try? JSONSerialization.data(withJSONObject: statements)).map { Array($0) }
    }
}
