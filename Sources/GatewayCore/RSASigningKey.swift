import AuthCore
import Crypto
import Encodings
import Foundation
import JWTKit
import _CryptoExtras

/// The OpenID Connect provider's RSA key (RS256): OpenID Connect Discovery §3 requires every
/// provider to offer RS256 ID tokens, and some clients take nothing else. ES256 stays the default
/// (``AssertionKeys``); a client asks for RS256 with `id_token_signed_response_alg`.
///
/// 2048 bits, in the data folder (`oidc-rsa-key.pem`, mode 0600, made on first start), or from
/// `WEBAPP_OIDC_RSA_KEY` (PEM) so that several instances sign with one key.
public enum RSASigningKey {
    static let file = "oidc-rsa-key.pem"

    /// The key in `folder`, made there first if there is none.
    public static func loadOrCreate(folder: String) throws -> JWTKit.Insecure.RSA.PrivateKey {
        let path = (folder as NSString).appendingPathComponent(file)
        if !FileManager.default.fileExists(atPath: path) {
            let made = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            if try !SecretFile.create(at: path, contents: made.pemRepresentation) {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            }
        }
        return try key(String(contentsOfFile: path, encoding: .utf8), source: path)
    }

    /// The key a PEM holds; `source` names it in the error.
    public static func key(_ pem: String, source: String) throws -> JWTKit.Insecure.RSA.PrivateKey {
        do {
            return try JWTKit.Insecure.RSA.PrivateKey(pem: pem)
        } catch {
            throw AssertionKeys.Invalid(description: "\(source) is not an RSA private key in PEM (2048 bits or more).")
        }
    }

    /// Its `kid`: the first 16 hex digits of SHA-256 over its modulus and exponent.
    public static func keyID(_ key: JWTKit.Insecure.RSA.PrivateKey) throws -> String {
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        return String(SHA256.hash(data: modulus + exponent).hexString.prefix(16))
    }

    /// Its public half as a JWK.
    static func jwk(_ key: JWTKit.Insecure.RSA.PrivateKey) throws -> JWK {
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        return JWK.rsa(
            .rs256, identifier: JWKIdentifier(string: try keyID(key)), modulus: modulus.base64URLEncodedString(),
            exponent: exponent.base64URLEncodedString())
    }
}
