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

    /// The account a proof's value (the cookie's, or the API's `recovery_id`) names, while the
    /// proof is young enough. `state` says how the account stands now: a proof made when it stood
    /// otherwise (it moved since, this recovery's or another's, or a new set of codes was made)
    /// is void, so one code moves the account once.
    private func user(signed value: String, state: (Int64) async throws -> String?) async rethrows -> Int64? {
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
    /// reads it, with that account; nil when there is no such account.
    func proved(_ account: Int64, as signIn: SignInService) async throws -> (cookie: Cookie, account: RecoveringAccount)? {
        guard let now = try await signIn.accountNumber(of: account) else { return nil }
        return (
            proved(account, state: Self.state(phone: now.phone, unusedCodes: now.unusedCodes)),
            RecoveringAccount(id: account, phone: now.phone, detachedFrom: now.detachedFrom)
        )
    }

    /// The cookie for the recovery `proved` just now, bound to how its transaction left the
    /// account (its number, its codes after the one spent): nothing is read after the commit.
    func proved(_ proved: SignInService.RecoveryProved) -> (cookie: Cookie, account: RecoveringAccount) {
        (
            self.proved(proved.account, state: Self.state(phone: proved.phone, unusedCodes: proved.codesLeft)),
            RecoveringAccount(id: proved.account, phone: proved.phone, detachedFrom: proved.detachedFrom)
        )
    }

    /// The account a proof's value names, as it stands now, while the proof holds (young enough,
    /// and the account as it stood).
    func account(signed value: String?, as signIn: SignInService) async throws -> RecoveringAccount? {
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
        return RecoveringAccount(id: id, phone: found.phone, detachedFrom: found.detachedFrom)
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

/// The account a recovery proved, and the number it is on now (nil: detached from any), for the
/// pages and the API alike.
struct RecoveringAccount: Sendable {
    let id: Int64
    let phone: PhoneNumber?
    /// The number a detached account was on: someone else's account holds it now.
    let detachedFrom: PhoneNumber?

    /// Refuses a new number the account cannot move to, before any code is sent: its own, or
    /// (detached) the one its number's new holder has.
    func check(_ phone: PhoneNumber) throws(NumberChangeError) {
        guard phone != self.phone else { throw .sameNumber }
        guard phone != detachedFrom else { throw .numberHasAccount }
    }
}
