import AuthCore
import Foundation
import JWTKit

/// Signs the assertions the check endpoints hand to the proxy, and publishes the key set.
///
/// A proxy asks on every request to every protected app, so an assertion, once signed for a
/// person and an app, is handed out again for ``reuseFor`` (it is then still valid for at
/// least four minutes): one ES256 signature a minute per person and app, not one per request.
public final class AssertionSigner: Sendable {
    /// How long an assertion is valid.
    public static let lifetime: TimeInterval = 300
    /// How long a signed assertion is handed out again.
    static let reuseFor: TimeInterval = 60
    /// Most assertions kept for reuse; past it the cache starts over.
    static let cacheLimit = 10_000

    /// This app's public address, the assertions' issuer.
    public let issuer: String
    /// The id of the key that signs (`kid`).
    public let keyID: String
    /// `/.well-known/jwks.json`'s body.
    public let keySetJSON: Data
    private let keys: JWTKeyCollection
    private let clock: @Sendable () -> Date
    private let cache = AssertionCache()

    /// The RSA key's id, when there is one (``RSASigningKey``: the OpenID Connect provider's
    /// RS256 ID tokens).
    public let rsaKeyID: String?

    /// - Parameter rsa: the OpenID Connect provider's RS256 key, listed in the key set too.
    public init(
        keys: AssertionKeys, issuer: String, rsa: JWTKit.Insecure.RSA.PrivateKey? = nil,
        clock: @escaping @Sendable () -> Date
    ) async throws {
        self.issuer = issuer
        self.clock = clock
        self.keyID = AssertionKeys.keyID(keys.current.publicKey)
        self.keys = JWTKeyCollection()
        await self.keys.add(ecdsa: keys.current, kid: JWKIdentifier(string: keyID))
        self.rsaKeyID = try rsa.map(RSASigningKey.keyID)
        if let rsa, let rsaKeyID {
            await self.keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: JWKIdentifier(string: rsaKeyID))
        }
        let listed = [keys.current.publicKey] + keys.previous
        let set = JWKS(
            keys: listed.map { key in
                JWK.ecdsa(
                    .es256, identifier: JWKIdentifier(string: AssertionKeys.keyID(key)), x: key.parameters?.x,
                    y: key.parameters?.y, curve: .p256)
            } + (try rsa.map { [try RSASigningKey.jwk($0)] } ?? []))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.keySetJSON = try encoder.encode(KeySet(set))
    }

    /// What the proxy hands to a protected app about a person.
    public struct Pass: Sendable, Equatable {
        /// The signed assertion.
        public let assertion: String
        /// The person's display name, when they set one (`Remote-Name`).
        public let name: String?
    }

    /// A signed assertion that `user` is signed in, for the app at `audience`. `name` reads the
    /// person's display name; it is asked only when a new assertion is signed.
    public func pass(
        for user: User, audience: HostName, name: () async throws -> String?
    ) async throws -> Pass {
        let now = clock()
        let key = AssertionCache.Key(user: user.id, phone: user.phone.e164, audience: audience.name)
        if let reused = cache.pass(for: key, at: now) { return reused }
        let displayName = try await name().flatMap(Self.headerSafe)
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = Assertion(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: String(user.id)),
            aud: AudienceClaim(value: audience.name), phoneNumber: user.phone.e164, name: displayName,
            iat: IssuedAtClaim(value: issuedAt), exp: ExpirationClaim(value: issuedAt + Self.lifetime))
        let token = try await keys.sign(claims, kid: JWKIdentifier(string: keyID), header: ["typ": "JWT"])
        let pass = Pass(assertion: token, name: displayName)
        cache.keep(pass, for: key, issuedAt: issuedAt)
        return pass
    }

    /// Any JWT signed with the current key (the OpenID Connect provider's ID and access tokens
    /// use the same keys and rotation), with header `typ` `type`.
    public func sign<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        try await keys.sign(payload, kid: JWKIdentifier(string: keyID), header: ["typ": .string(type)])
    }

    /// Signs with the RSA key (RS256); throws when there is none.
    public func signRS256<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        guard let rsaKeyID else { throw JWTError.generic(identifier: "rs256", reason: "No RSA key.") }
        return try await keys.sign(payload, kid: JWKIdentifier(string: rsaKeyID), header: ["typ": .string(type)])
    }

    /// A JWT this signer's current key signed, checked (the signature by `kid` and `alg`, then
    /// the payload's own checks): `alg: none`, HMAC and other keys' tokens are refused.
    public func verify<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload {
        try await keys.verify(token, as: payload)
    }

    /// `name` when it can go in a header as it is: no control characters (a line break would
    /// start a header of its own), at most 200 bytes; else `nil` (the assertion still says who).
    static func headerSafe(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 200,
            name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f && !(0x80...0x9f).contains($0.value) }
            )
        else { return nil }
        return name
    }
}

/// The key set with `use: sig` on each key (jwt-kit's `JWK` has no such field).
private struct KeySet: Encodable {
    let keys: [Key]

    struct Key: Encodable {
        let key: JWK
        func encode(to encoder: any Encoder) throws {
            try key.encode(to: encoder)
            var container = encoder.container(keyedBy: Use.self)
            try container.encode("sig", forKey: .use)
        }
        enum Use: String, CodingKey { case use }
    }

    init(_ set: JWKS) {
        keys = set.keys.map(Key.init)
    }
}

/// Signed passes by person and app, handed out again while young enough.
final class AssertionCache: @unchecked Sendable {
    struct Key: Hashable {
        let user: Int64
        let phone: String
        let audience: String
    }

    private let lock = NSLock()
    private var passes: [Key: (pass: AssertionSigner.Pass, issuedAt: Date)] = [:]

    func pass(for key: Key, at now: Date) -> AssertionSigner.Pass? {
        lock.withLock {
            guard let kept = passes[key], now.timeIntervalSince(kept.issuedAt) < AssertionSigner.reuseFor,
                now >= kept.issuedAt
            else { return nil }
            return kept.pass
        }
    }

    func keep(_ pass: AssertionSigner.Pass, for key: Key, issuedAt: Date) {
        lock.withLock {
            if passes.count >= AssertionSigner.cacheLimit { passes.removeAll(keepingCapacity: true) }
            passes[key] = (pass, issuedAt)
        }
    }
}
