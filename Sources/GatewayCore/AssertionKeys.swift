import AuthCore
import Crypto
import Encodings
import Foundation
import JWTKit

/// The gateway's signing keys: the current ES256 private key that signs every assertion, and
/// the public keys `/.well-known/jwks.json` lists (the current one and, for a day after a
/// rotation, the one before it, so an upstream that cached the key set keeps verifying).
///
/// The key lives in the data folder (`assertion-key.pem`, 0600), created on first start, or
/// comes from `WEBAPP_ASSERTION_KEY` (a PEM; give all instances the same one). `webapp
/// --rotate-assertion-key` moves the current key to `assertion-key.previous.pem` and makes a
/// new one; the next start signs with the new key and still lists the old one for
/// ``previousKeyListedFor``.
public struct AssertionKeys: Sendable {
    /// The key that signs.
    public let current: ES256PrivateKey
    /// Keys no longer signing whose public half is still listed.
    public let previous: [ES256PublicKey]

    /// How long a rotated-out key stays in the key set: far longer than an assertion lives
    /// (5 minutes), so caches of the key set of any sensible age see the new key in time.
    public static let previousKeyListedFor: TimeInterval = 24 * 60 * 60

    static let currentFile = "assertion-key.pem"
    static let previousFile = "assertion-key.previous.pem"

    /// Why the keys could not be loaded.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(current: ES256PrivateKey, previous: [ES256PublicKey] = []) {
        self.current = current
        self.previous = previous
    }

    /// Keys given as PEM text (`WEBAPP_ASSERTION_KEY`, and optionally the previous one's public
    /// or private key, listed until it is removed from the environment).
    public init(pem: String, previousPEM: String?, source: String) throws(Invalid) {
        let current = try Self.privateKey(pem, source: source)
        var previous: [ES256PublicKey] = []
        if let previousPEM {
            if let key = try? ES256PublicKey(pem: previousPEM) {
                previous.append(key)
            } else {
                previous.append(try Self.privateKey(previousPEM, source: source + "_PREVIOUS").publicKey)
            }
        }
        self.init(current: current, previous: previous)
    }

    /// The keys in `folder`, the current one created when there is none.
    public static func loadOrCreate(folder: String, now: Date) throws -> AssertionKeys {
        let path = (folder as NSString).appendingPathComponent(currentFile)
        if try !SecretFile.create(at: path, contents: ES256PrivateKey().pemRepresentation) {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
        let current = try privateKey(String(contentsOfFile: path, encoding: .utf8), source: path)
        let previousPath = (folder as NSString).appendingPathComponent(previousFile)
        var previous: [ES256PublicKey] = []
        let rotatedAt = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        if FileManager.default.fileExists(atPath: previousPath),
            now.timeIntervalSince(rotatedAt ?? .distantPast) < previousKeyListedFor
        {
            previous.append(
                try privateKey(String(contentsOfFile: previousPath, encoding: .utf8), source: previousPath).publicKey)
        }
        return AssertionKeys(current: current, previous: previous)
    }

    /// Replaces the key in `folder` with a new one, keeping the old one as the previous key.
    /// Returns the new key's id.
    @discardableResult
    public static func rotate(folder: String) throws -> String {
        let manager = FileManager.default
        let path = (folder as NSString).appendingPathComponent(currentFile)
        let previousPath = (folder as NSString).appendingPathComponent(previousFile)
        if manager.fileExists(atPath: path) {
            if manager.fileExists(atPath: previousPath) { try manager.removeItem(atPath: previousPath) }
            try manager.moveItem(atPath: path, toPath: previousPath)
        }
        let key = ES256PrivateKey()
        guard try SecretFile.create(at: path, contents: key.pemRepresentation) else {
            throw Invalid(description: "Another process created \(path) during the rotation; run it again.")
        }
        return keyID(key.publicKey)
    }

    /// A key's id (`kid`): the first 16 hex digits of the SHA-256 of its public key, the same on
    /// every instance that has the key.
    public static func keyID(_ key: ES256PublicKey) -> String {
        guard let parameters = key.parameters else { return "" }
        return String(SHA256.hash(data: Data((parameters.x + "." + parameters.y).utf8)).hexString.prefix(16))
    }

    private static func privateKey(_ pem: String, source: String) throws(Invalid) -> ES256PrivateKey {
        do {
            return try ES256PrivateKey(pem: pem)
        } catch {
            throw Invalid(description: "The assertion key from \(source) is not a P-256 private key in PEM.")
        }
    }
}

