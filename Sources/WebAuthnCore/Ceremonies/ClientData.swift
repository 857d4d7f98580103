import Foundation

/// The browser's `clientDataJSON` (WebAuthn Level 3 §5.8.1), parsed: which ceremony, the
/// challenge it answers, and the page's origin. The signature covers its exact bytes, so they
/// are kept as well.
public struct ClientData: Sendable {
    public let type: String
    /// The challenge as the browser saw it: base64url, no padding.
    public let challenge: String
    public let origin: String
    public let crossOrigin: Bool
    /// The top-level page's origin, when the ceremony ran in a frame (Level 3).
    public let topOrigin: String?
    public let raw: [UInt8]

    /// The most `clientDataJSON` may hold: a browser's is a few hundred bytes.
    public static let maxLength = 4096

    public enum Failure: Error, Equatable, Sendable {
        case tooLong
        /// Not a JSON object with string `type`, `challenge` and `origin`.
        case malformed
    }

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
        let topOrigin: String?
    }

    public init(_ bytes: [UInt8]) throws(Failure) {
        guard bytes.count <= Self.maxLength else { throw .tooLong }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(bytes)) else { throw .malformed }
        type = fields.type
        challenge = fields.challenge
        origin = fields.origin
        crossOrigin = fields.crossOrigin ?? false
        topOrigin = fields.topOrigin
        raw = bytes
    }
}
