import Crypto
import Encodings
import Foundation

/// The server's master secret: the HMAC key for codes, session cookies and CSRF tokens.
///
/// It is generated on first start into the data folder (mode 0600, readable by the server's user
/// only) or given by the environment, so that several instances can share one.
public struct ServerSecret: Sendable {
    private let key: SymmetricKey

    /// Why a secret could not be loaded.
    public enum LoadError: Error, CustomStringConvertible {
        case tooShort(source: String)
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .tooShort(let source):
                return "The server secret from \(source) is too short: it needs at least 32 bytes (64 hex digits)."
            case .unreadable(let path, let reason):
                return "Could not read or create the server secret at \(path): \(reason)"
            }
        }
    }

    /// Smallest secret accepted, in bytes.
    public static let minimumLength = 32

    /// A secret from raw bytes (at least 32).
    public init(bytes: some DataProtocol) throws {
        guard bytes.count >= Self.minimumLength else { throw LoadError.tooShort(source: "the given bytes") }
        self.key = SymmetricKey(data: Data(bytes))
    }

    /// A fresh random secret; for tests and throwaway instances.
    public static func random() -> ServerSecret {
        // SymmetricKey(size:) reads the system's secure random source.
        ServerSecret(key: SymmetricKey(size: .bits256))
    }

    private init(key: SymmetricKey) {
        self.key = key
    }

    /// A secret from its hex text, as given in an environment variable.
    public init(hex: String, source: String) throws {
        let trimmed = hex.trimmingWhitespace()
        guard let bytes = Data(hexString: trimmed) else {
            throw LoadError.unreadable(path: source, reason: "it is not hexadecimal")
        }
        guard bytes.count >= Self.minimumLength else { throw LoadError.tooShort(source: source) }
        self.key = SymmetricKey(data: bytes)
    }

    /// Reads the secret file at `path`, creating it with 32 random bytes (as hex, mode 0600) when
    /// it does not exist yet. An existing file with looser permissions is tightened to 0600.
    public static func loadOrCreate(at path: String) throws -> ServerSecret {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) {
            do {
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
                let text = try String(contentsOfFile: path, encoding: .utf8)
                return try ServerSecret(hex: text, source: path)
            } catch let error as LoadError {
                throw error
            } catch {
                throw LoadError.unreadable(path: path, reason: "\(error)")
            }
        }
        let secret = ServerSecret.random()
        let hex = secret.key.withUnsafeBytes { Data($0).hexString } + "\n"
        // Created with 0600 from the first byte, and only once when two instances start together.
        do {
            guard try SecretFile.create(at: path, contents: hex) else { return try loadOrCreate(at: path) }
        } catch let failure as SecretFile.Failure {
            throw LoadError.unreadable(path: path, reason: failure.reason)
        }
        return secret
    }

    /// A key for one purpose, derived with HKDF so that no two features share key material.
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key,
            info: Data("phone-login/\(purpose)".utf8),
            outputByteCount: 32
        )
    }
}

