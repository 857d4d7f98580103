import AuthCore
import Crypto
import Encodings
import Foundation
import HTTPLite

/// A recovery proved ("Lost your phone or number?": the old number and a recovery code), while
/// the person gives a new number and its code: the account's id and when it was proved, with a
/// MAC under a key derived from the server secret, so every instance reads it and nobody makes
/// one. Only on `/recover`, `HttpOnly`, for ``SignInPolicy/recoveryProofLifetime``; `__Secure-`
/// with `--https`. Nothing in it is secret: it proves only what the recovery code proved.
struct RecoveryCookie: Sendable {
    let secure: Bool
    let lifetime: TimeInterval
    let key: SymmetricKey
    let clock: @Sendable () -> Date

    static let path = "/recover"
    var name: String { (secure ? "__Secure-" : "") + "recovery" }

    /// The cookie for a recovery of `user` proved now.
    func proved(_ user: Int64) -> Cookie {
        let value = "\(user).\(Int(clock().timeIntervalSince1970))"
        return Cookie(
            name: name, value: value + "." + mac(value), path: Self.path, maxAge: Int(lifetime), secure: secure)
    }

    /// The account whose recovery this browser proved, while the proof is young enough.
    func user(in request: Request) -> Int64? {
        guard let value = request.cookie(name), let dot = value.lastIndex(of: ".") else { return nil }
        let signed = String(value[..<dot])
        guard constantTimeEquals(Data(value[value.index(after: dot)...].utf8), Data(mac(signed).utf8)) else {
            return nil
        }
        let parts = signed.split(separator: ".")
        guard parts.count == 2, let user = Int64(parts[0]), let at = Int(parts[1]) else { return nil }
        let age = clock().timeIntervalSince1970 - Double(at)
        guard age >= -60, age < lifetime else { return nil }
        return user
    }

    var cleared: Cookie { Cookie.expired(name: name, path: Self.path, secure: secure) }

    private func mac(_ value: String) -> String {
        let message = Data("recovery.\(value)".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64URLEncodedString()
    }
}
