import Encodings
import Foundation

/// The form side of a CSRF token, masked afresh for every page (BREACH).
///
/// The cookie holds the token; a page that carried it as it is would repeat the same secret in
/// every answer, and a compressed answer that also reflects text an attacker chose (a
/// return address on Login) lets one who sees only the sizes on the wire guess it a character at
/// a time. So the field is a fresh random pad followed by the token's bytes XORed with it: the
/// same token is a different field on every render, nothing repeats for compression to find,
/// and the check unmasks it before comparing with the cookie (the cookie side is unchanged).
/// Rails, Django and gorilla/csrf do the same.
extension CSRFTokens {
    /// A masked form of `token` (the cookie's value) for a page's hidden field: 80 bytes,
    /// 107 base64url characters, different on each call.
    public func masked(_ token: String) -> String {
        guard let raw = Data(base64URLEncoded: token), !raw.isEmpty else { return token }
        let pad = secureRandomBytes(raw.count)
        return Data(pad + zip(pad, raw).map { $0 ^ $1 }).base64URLEncodedString()
    }

    /// The token a form field stands for: a masked field unmasked, or the bytes of a field that
    /// holds the token as it is. The plain form is still accepted: pages rendered before masking
    /// (a form left open across a deploy), scripts and the benchmarks post the cookie's value,
    /// and it is no weaker, since whoever has the plain token could mask it himself. `nil` when
    /// the field is no token at all.
    static func unmasked(_ field: String) -> Data? {
        guard field.utf8.count <= 2 * maxTokenCharacters, let data = Data(base64URLEncoded: field) else { return nil }
        guard data.count == 2 * tokenLength else { return data.count == tokenLength ? data : nil }
        return Data(zip(data.prefix(tokenLength), data.suffix(tokenLength)).map { $0 ^ $1 })
    }
}
