import AuthCore
import Crypto
import Encodings
import Foundation

/// An app that signs people in through this provider (`--oidc-clients FILE`), as configured:
/// its id, the name people see, where it may be sent back to (matched exactly), and how it
/// proves itself at the token endpoint.
public struct OIDCClient: Sendable, Equatable {
    public let id: String
    /// Shown to people: "Sign in to Grafana", "Grafana wants your phone number".
    public let name: String
    public let redirectURIs: [String]
    /// The hex SHA-256 of the client's secret (a confidential client); `nil` for a public one,
    /// which must use PKCE.
    public let secretSHA256: Data?
    public let postLogoutRedirectURIs: [String]
    /// Trusted: no consent page.
    public let firstParty: Bool
    /// Its ID tokens are RS256 (`id_token_signed_response_alg`); ES256 otherwise.
    public let idTokenRS256: Bool
    /// Where it is told that a person's session ended (OpenID Connect Back-Channel Logout 1.0):
    /// a logout token is posted there, signed as its ID tokens are.
    public let backchannelLogoutURI: String?
    /// An app in the database whose secret was rotated: the old secret's SHA-256, still
    /// accepted until its day is over (the store leaves it out after that).
    public var retiringSecretSHA256: Data? = nil

    public init(
        id: String, name: String, redirectURIs: [String], secretSHA256: Data?, postLogoutRedirectURIs: [String] = [],
        firstParty: Bool = false, idTokenRS256: Bool = false, backchannelLogoutURI: String? = nil
    ) {
        self.backchannelLogoutURI = backchannelLogoutURI
        self.idTokenRS256 = idTokenRS256
        self.id = id
        self.name = name
        self.redirectURIs = redirectURIs
        self.secretSHA256 = secretSHA256
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.firstParty = firstParty
    }

    public var isPublic: Bool { secretSHA256 == nil }

    /// Whether `uri` is one of the registered redirect URIs, byte for byte: Swift's `==` on
    /// strings is Unicode-canonical, so it would take a KELVIN SIGN for a registered `K`.
    public func registers(redirectURI uri: String) -> Bool {
        redirectURIs.contains { $0.utf8.elementsEqual(uri.utf8) }
    }

    /// Whether `uri` is one of the registered post-logout redirect URIs, byte for byte.
    public func registers(postLogoutRedirectURI uri: String) -> Bool {
        postLogoutRedirectURIs.contains { $0.utf8.elementsEqual(uri.utf8) }
    }

    /// Whether `secret` is this client's (SHA-256 compared in constant time); a public client
    /// has none to give.
    public func accepts(secret: String) -> Bool {
        guard let expected = secretSHA256 else { return false }
        let given = Data(SHA256.hash(data: Data(secret.utf8)))
        // Both compared whatever the first gives: the time says nothing of which matched.
        let current = constantTimeEquals(given, expected)
        let retiring = retiringSecretSHA256.map { constantTimeEquals(given, $0) } ?? false
        return current || retiring
    }
}

/// Every configured client, by id.
public struct ClientRegistry: Sendable {
    public let clients: [String: OIDCClient]

    public init(_ clients: [OIDCClient]) {
        self.clients = Dictionary(clients.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The client whose id is `id`, byte for byte (a dictionary's lookup is Unicode-canonical).
    public subscript(id: String) -> OIDCClient? {
        clients[id].flatMap { $0.id.utf8.elementsEqual(id.utf8) ? $0 : nil }
    }

    /// Why a clients file is refused: which client and which field, in words.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The file `{"clients": [...]}`, checked whole: each client needs a `client_id` (1 to 64
    /// characters of A-Z a-z 0-9 . _ -), a `name`, at least one `redirect_uris` entry (an
    /// absolute https URL, or http on localhost/127.0.0.1, without a fragment), and either a
    /// `client_secret_sha256` (64 hex digits) or `"public": true`, not both.
    public static func load(_ json: Data) throws(Invalid) -> ClientRegistry {
        struct File: Decodable {
            let clients: [Entry]
        }
        struct Entry: Decodable {
            let client_id: String?
            let name: String?
            let redirect_uris: [String]?
            let client_secret_sha256: String?
            let `public`: Bool?
            let post_logout_redirect_uris: [String]?
            let first_party: Bool?
            let id_token_signed_response_alg: String?
            let backchannel_logout_uri: String?
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw Invalid(description: "The OIDC clients file is not {\"clients\": [...]} JSON: \(error)")
        }
        var clients: [OIDCClient] = []
        for (index, entry) in file.clients.enumerated() {
            let label = entry.client_id.map { "client \($0.debugDescription)" } ?? "client #\(index + 1)"
            func refuse(_ field: String, _ why: String) -> Invalid { Invalid(description: "\(label): \(field) \(why)") }
            guard let id = entry.client_id, Self.isAcceptable(id: id)
            else { throw refuse("client_id", "must be 1 to 64 characters of A-Z, a-z, 0-9, '.', '_' or '-'.") }
            guard !clients.contains(where: { $0.id == id }) else { throw refuse("client_id", "is listed twice.") }
            guard let name = entry.name.flatMap(Self.acceptableName)
            else { throw refuse("name", "must be 1 to 64 characters people can read.") }
            guard let redirects = entry.redirect_uris, !redirects.isEmpty else {
                throw refuse("redirect_uris", "must list at least one address.")
            }
            let addresses =
                redirects.map { ("redirect_uris", $0) }
                + (entry.post_logout_redirect_uris ?? []).map { ("post_logout_redirect_uris", $0) }
                + (entry.backchannel_logout_uri.map { [("backchannel_logout_uri", $0)] } ?? [])
            for (field, uri) in addresses where !Self.isAcceptable(uri) {
                throw refuse(
                    field,
                    "has \(uri.debugDescription): an absolute https address (http only on localhost or 127.0.0.1), without a fragment."
                )
            }
            let isPublic = entry.public ?? false
            var secret: Data?
            switch (entry.client_secret_sha256, isPublic) {
            case (let hex?, false):
                guard hex.count == 64, let bytes = Data(hexString: hex) else {
                    throw refuse("client_secret_sha256", "must be 64 hex digits (SHA-256 of the secret).")
                }
                secret = bytes
            case (nil, true): secret = nil
            case (_?, true): throw refuse("client_secret_sha256", "is given, but the client is public: choose one.")
            case (nil, false):
                throw refuse("client_secret_sha256", "is missing: give it, or \"public\": true (which needs PKCE).")
            }
            let rs256: Bool
            switch entry.id_token_signed_response_alg {
            case nil, "ES256": rs256 = false
            case "RS256": rs256 = true
            default: throw refuse("id_token_signed_response_alg", "must be \"ES256\" (the default) or \"RS256\".")
            }
            clients.append(
                OIDCClient(
                    id: id, name: name, redirectURIs: redirects, secretSHA256: secret,
                    postLogoutRedirectURIs: entry.post_logout_redirect_uris ?? [],
                    firstParty: entry.first_party ?? false, idTokenRS256: rs256,
                    backchannelLogoutURI: entry.backchannel_logout_uri))
        }
        return ClientRegistry(clients)
    }

    /// A client id: 1 to 64 characters of A-Z a-z 0-9 . _ -.
    public static func isAcceptable(id: String) -> Bool {
        (1...64).contains(id.count) && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    /// A name people see, trimmed: 1 to 64 characters, none a control character; nil otherwise.
    public static func acceptableName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        // No control character, and no mark that reorders text (a name shown reversed).
        guard (1...64).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            })
        else { return nil }
        return trimmed
    }

    /// A redirect address: absolute https (http only on this machine), no fragment, no user.
    public static func isAcceptable(_ uri: String) -> Bool {
        // Printable ASCII only (a space or a control character would go out raw in `Location`),
        // and a port that exists.
        guard uri.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return false }
        guard let components = URLComponents(string: uri), (components.port ?? 1) <= 65535,
            let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return false }
        return scheme == "https" || (scheme == "http" && ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host))
    }
}
