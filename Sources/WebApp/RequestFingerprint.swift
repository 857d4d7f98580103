import Crypto
import Foundation
import HTTPLite
import WalletCore

/// What a request asked for, as a SHA-256 digest: its method, its path and its body in a
/// canonical form. Stored with a one-time key (``WalletCore/OperationKey``) so that the same key
/// sent again with another request is told apart from a replay of the same one.
///
/// Canonical means what the person asked for, not how the bytes happened to be laid out: a
/// form's fields sorted, without the CSRF token and the key itself (a page reloaded in between
/// may carry another token); a JSON body re-encoded with sorted keys, so a client that orders
/// its object differently on a retry is still replaying.
enum RequestFingerprint {
    /// Form fields that say nothing about what the form asks for.
    static let ignoredFields: Set<String> = [CSRFProtection.fieldName, "key"]

    /// The fingerprint of a page's form post.
    static func form(_ request: Request, _ form: URLEncodedForm) -> Data {
        let fields = form.pairs.filter { !ignoredFields.contains($0.name) }.map { [$0.name, $0.value] }
            .sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
        // JSON of the sorted pairs: no field's value can pass for another field.
        let body = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return digest(request, body: body)
    }

    /// The fingerprint of an API call: its JSON body re-encoded with sorted keys (a body that is
    /// not JSON, or none, as it came).
    static func json(_ request: Request) -> Data {
        let raw = Data(request.body.readableBytesView)
        guard !raw.isEmpty,
            let value = try? JSONSerialization.jsonObject(with: raw, options: [.fragmentsAllowed]),
            let canonical = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return digest(request, body: raw) }
        return digest(request, body: canonical)
    }

    /// SHA-256 of `METHOD path`, a newline, and the canonical body.
    private static func digest(_ request: Request, body: Data) -> Data {
        var hash = SHA256()
        hash.update(data: Data("\(request.method.rawValue) \(request.path)\n".utf8))
        hash.update(data: body)
        return Data(hash.finalize())
    }
}
