import ArgumentParser
import Foundation
import OIDCCore

/// The `webapp` option of the OpenID Connect provider: the apps that may sign people in here.
struct OIDCOptions: ParsableArguments {
    @Option(
        name: .customLong("oidc-clients"),
        help: """
            Turns the OpenID Connect provider on: a JSON file {"clients": [...]}, each with client_id, name, \
            redirect_uris, client_secret_sha256 (hex SHA-256 of its secret) or "public": true, \
            post_logout_redirect_uris, first_party (no consent page) and id_token_signed_response_alg \
            (ES256, the default, or RS256). Needs --public-url (the issuer).
            """)
    var clientsPath: String?

    @Option(
        name: .customLong("oidc-refresh-lifetime"),
        help: """
            Days an app's refresh tokens keep working after the sign-in that began them, however often \
            they are used (1 to 3650); then the person signs in to the app again.
            """)
    var refreshLifetimeDays = Int(RefreshGrant.familyLifetime / 86_400)

    static let names = ["oidc-clients", "oidc-refresh-lifetime"]

    func validate() throws {
        guard (1...3650).contains(refreshLifetimeDays) else {
            throw ValidationError("--oidc-refresh-lifetime must be between 1 and 3650 days.")
        }
    }

    /// The clients the file names, checked; `nil` when the provider is off.
    func registry(publicURL: String?) throws -> ClientRegistry? {
        guard let clientsPath else { return nil }
        guard publicURL != nil else {
            throw ValidationError("--oidc-clients needs --public-url, this app's address (the issuer).")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: clientsPath))
        } catch {
            throw ValidationError("--oidc-clients: cannot read \(clientsPath).")
        }
        do {
            return try ClientRegistry.load(data)
        } catch {
            throw ValidationError("--oidc-clients \(clientsPath): \(error.description)")
        }
    }
}
