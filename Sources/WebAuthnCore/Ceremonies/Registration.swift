import Crypto

/// A new passkey, checked (WebAuthn Level 3 §7.1, "Registering a New Credential"): what to store.
public struct NewCredential: Sendable {
    public let id: [UInt8]
    /// The COSE key's bytes (parsed again with ``COSEKey`` at each sign-in).
    public let publicKey: [UInt8]
    public let algorithm: COSEKey.Algorithm
    public let signCount: UInt32
    public let aaguid: [UInt8]
    public let backupEligible: Bool
    public let backedUp: Bool
}

extension RelyingParty {
    /// Checks a registration's `clientDataJSON` and `attestationObject` against the challenge
    /// this browser's session was given, in the specification's order; attestation `none` only.
    public func register(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: String)
        throws(CeremonyFailure) -> NewCredential
    {
        let client: ClientData
        do { client = try ClientData(clientDataJSON) } catch { throw .clientData(error) }
        // Step 12: the attestation object, CBOR {fmt, attStmt, authData}.
        guard attestationObject.count <= 65_536, let object = try? CBORDecoder.decode(attestationObject),
            let format = object[name: "fmt"]?.text, let statement = object[name: "attStmt"],
            let authData = object[name: "authData"]?.bytes
        else { throw .attestationObject }
        let data: AuthenticatorData
        do { data = try AuthenticatorData(authData) } catch { throw .authenticatorData(error) }
        try checkShared(client, type: "webauthn.create", challenge: challenge, data: data)
        // Steps 19-21: we ask for no attestation, and take none.
        guard format == "none" else { throw .unsupportedAttestation(String(format.prefix(32))) }
        guard case .map(let pairs) = statement, pairs.isEmpty else { throw .attestationObject }
        guard let credential = data.attestedCredential else { throw .noCredential }
        return NewCredential(
            id: credential.credentialID, publicKey: credential.publicKeyBytes,
            algorithm: credential.publicKey.algorithm, signCount: data.signCount, aaguid: credential.aaguid,
            backupEligible: data.flags.backupEligible, backedUp: data.flags.backedUp)
    }
}

extension RelyingParty {
    /// The new credential's id an attestation object names, without checking anything else
    /// (to look up whether it is already registered before the checks run); `nil` when it does
    /// not parse.
    public static func credentialID(in attestationObject: [UInt8]) -> [UInt8]? {
        guard attestationObject.count <= 65_536, let object = try? CBORDecoder.decode(attestationObject),
            let authData = object[name: "authData"]?.bytes
        else { return nil }
        return (try? AuthenticatorData(authData))?.attestedCredential?.credentialID
    }
}
