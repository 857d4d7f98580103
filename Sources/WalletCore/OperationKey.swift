import Foundation

/// A one-time key (a form's hidden `key`, the API's `Idempotency-Key`) with the fingerprint of
/// the request it came with.
///
/// The key says "this is the same request as before": a replay returns the first result and
/// changes nothing. The fingerprint keeps that honest: the same key sent with another request
/// (a withdrawal after a deposit, another amount) is refused
/// (``WalletError/operationKeyReused``) instead of answered as if it had happened.
public struct OperationKey: Sendable, Equatable {
    /// The key as the client sent it (16 to 64 characters of base64url, ``Wallet/isValidKey(_:)``).
    public let value: String
    /// What the request asked for, as a digest (the web layer's SHA-256 of its method, path and
    /// canonical body or form fields): compared with the one stored with the key, never read.
    public let fingerprint: Data

    public init(_ value: String, fingerprint: Data) {
        self.value = value
        self.fingerprint = fingerprint
    }
}
