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

    /// The cookie for a recovery of `user` proved now, when the account stood as `state` says
    /// (its number and its unused codes, after the one spent).
    func proved(_ user: Int64, state: String) -> Cookie {
        let value = "\(user).\(Int(clock().timeIntervalSince1970))"
        return Cookie(
            name: name, value: value + "." + mac(value + "." + state), path: Self.path, maxAge: Int(lifetime),
            secure: secure)
    }

    /// The account whose recovery this browser proved, while the proof is young enough.
    /// `state` says how the account stands now: a proof made when it stood otherwise (it moved
    /// since, this recovery's or another's, or a new set of codes was made) is void, so one code
    /// moves the account once.
    func user(in request: Request, state: (Int64) async throws -> String?) async rethrows -> Int64? {
        guard let value = request.cookie(name) else { return nil }
        return try await user(signed: value, state: state)
    }

    /// ``user(in:state:)`` for the proof's value itself (the API's `recovery_id`).
    func user(signed value: String, state: (Int64) async throws -> String?) async rethrows -> Int64? {
        guard value.utf8.count <= 256, let dot = value.lastIndex(of: ".") else { return nil }
        let signed = String(value[..<dot])
        let parts = signed.split(separator: ".")
        guard parts.count == 2, let user = Int64(parts[0]), let at = Int(parts[1]) else { return nil }
        let age = clock().timeIntervalSince1970 - Double(at)
        guard age >= -60, age < lifetime, let now = try await state(user),
            constantTimeEquals(Data(value[value.index(after: dot)...].utf8), Data(mac(signed + "." + now).utf8))
        else { return nil }
        return user
    }

    /// The cookie for a recovery of `account` proved now, bound to how it stands as `signIn`
    /// reads it; nil when there is no such account.
    func proved(_ account: Int64, as signIn: SignInService) async throws -> Cookie? {
        guard let now = try await signIn.accountNumber(of: account) else { return nil }
        return proved(account, state: Self.state(phone: now.phone, unusedCodes: now.unusedCodes))
    }

    /// The account a proof's value names, and the number it is on now (nil: detached), while the
    /// proof holds (young enough, and the account as it stood).
    func account(signed value: String?, as signIn: SignInService) async throws
        -> (id: Int64, phone: PhoneNumber?, detachedFrom: PhoneNumber?)?
    {
        guard let value else { return nil }
        var found: (phone: PhoneNumber?, unusedCodes: Int, detachedFrom: PhoneNumber?)?
        guard
            let id = try await user(
                signed: value,
                state: { id in
                    found = try await signIn.accountNumber(of: id)
                    return found.map { Self.state(phone: $0.phone, unusedCodes: $0.unusedCodes) }
                }), let found
        else { return nil }
        return (id, found.phone, found.detachedFrom)
    }

    /// How an account stands, as a proof binds it: its number (or none) and its unused codes.
    static func state(phone: PhoneNumber?, unusedCodes: Int) -> String {
        "\(phone?.e164 ?? "detached").\(unusedCodes)"
    }

    var cleared: Cookie { Cookie.expired(name: name, path: Self.path, secure: secure) }

    private func mac(_ value: String) -> String {
        let message = Data("recovery.\(value)".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64URLEncodedString()
    }
}
