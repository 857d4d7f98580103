import Crypto
import Encodings
import EventsCore
import Foundation

/// An app added in the operators' console: kept in the database, so every instance uses a
/// change at once, with no restart. Confidential, with a secret shown once and kept as its
/// SHA-256; a rotated secret keeps working for ``retiringFor`` (a day) beside the new one.
public struct StoredApp: Sendable, Equatable {
    public var id: String
    public var name: String
    public var redirectURIs: [String]
    public var secretSHA256: Data
    /// The secret before the last rotation, and until when it still works.
    public var retiringSecretSHA256: Data?
    public var retiringUntil: Double?
    /// Turned off: it signs nobody in, and its tokens stop working, until turned on again.
    public var disabledAt: Double?
    public var createdAt: Double

    /// How long a rotated secret keeps working beside the new one.
    public static let retiringFor: TimeInterval = 86_400

    public init(
        id: String, name: String, redirectURIs: [String], secretSHA256: Data, retiringSecretSHA256: Data? = nil,
        retiringUntil: Double? = nil, disabledAt: Double? = nil, createdAt: Double
    ) {
        self.id = id
        self.name = name
        self.redirectURIs = redirectURIs
        self.secretSHA256 = secretSHA256
        self.retiringSecretSHA256 = retiringSecretSHA256
        self.retiringUntil = retiringUntil
        self.disabledAt = disabledAt
        self.createdAt = createdAt
    }

    /// The client it is at `now`: none while turned off; the retiring secret only within its day.
    public func client(at now: Double) -> OIDCClient? {
        guard disabledAt == nil else { return nil }
        var client = OIDCClient(id: id, name: name, redirectURIs: redirectURIs, secretSHA256: secretSHA256)
        if let retiringUntil, now < retiringUntil { client.retiringSecretSHA256 = retiringSecretSHA256 }
        return client
    }

    /// Whether the retiring secret still works at `now`.
    public func isRetiring(at now: Double) -> Bool {
        retiringSecretSHA256 != nil && (retiringUntil.map { now < $0 } ?? false)
    }

    /// A new secret: 32 random bytes, base64url; shown once, kept as its SHA-256.
    public static func newSecret() -> (secret: String, sha256: Data) {
        let secret = Data(secureRandomBytes(32)).base64URLEncodedString()
        return (secret, Data(SHA256.hash(data: Data(secret.utf8))))
    }

    /// Why an app's fields are refused, for the console's form.
    public enum Refusal: Error, Sendable, Equatable {
        case id, name, redirects
        /// The id is a file client's, or another app's.
        case idTaken
    }

    /// An app's fields as an operator typed them: the id (only when adding), the name, and the
    /// redirect addresses one a line; each checked as the clients file checks them.
    public static func checked(id: String?, name: String, redirects: String) throws(Refusal)
        -> (id: String?, name: String, redirectURIs: [String])
    {
        if let id { guard ClientRegistry.isAcceptable(id: id) else { throw .id } }
        guard let name = ClientRegistry.acceptableName(name) else { throw .name }
        let uris = redirects.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !uris.isEmpty, uris.count <= 10, uris.allSatisfy({ $0.utf8.count <= 512 && ClientRegistry.isAcceptable($0) })
        else { throw .redirects }
        return (id, name, uris)
    }
}

/// Where apps added in the console are kept (the clients file's stay in the file).
public protocol AppStore: Sendable {
    func app(id: String) async throws -> StoredApp?
    /// Every app, oldest first.
    func apps() async throws -> [StoredApp]
    /// Adds `app` with `event` (the operator's); throws ``StoredApp/Refusal/idTaken`` when the
    /// id is another app's.
    func add(_ app: StoredApp, recording event: Event) async throws
    /// Changes the name and redirect addresses; false when there is no such app.
    func update(id: String, name: String, redirectURIs: [String], recording event: Event) async throws -> Bool
    /// The secret becomes `sha256`; the one before works until `retiringUntil`.
    func rotateSecret(id: String, to sha256: Data, retiringUntil: Double, recording event: Event) async throws -> Bool
    /// Turns the app off (`at`) or on (nil): off, its refresh tokens stop working too.
    func setDisabled(id: String, at: Double?, recording event: Event) async throws -> Bool
    /// Deletes the app, its consents and its refresh tokens.
    func delete(id: String, at: Double, recording event: Event) async throws -> Bool
}
