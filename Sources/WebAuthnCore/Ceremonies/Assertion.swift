import Crypto

/// A passkey as stored, for checking a sign-in with it.
public struct StoredCredential: Sendable {
    public let publicKey: COSEKey
    public let signCount: UInt32

    public init(publicKey: COSEKey, signCount: UInt32) {
        self.publicKey = publicKey
        self.signCount = signCount
    }
}

/// A sign-in with a passkey, checked (WebAuthn Level 3 §7.2): the counter to store now.
public struct VerifiedAssertion: Sendable, Equatable {
    public let signCount: UInt32
    public let backedUp: Bool
}

extension RelyingParty {
    /// Checks an assertion against the challenge this browser's session was given and the
    /// credential it names (found by the caller, who also checks that the user handle is that
    /// credential's user), in the specification's order.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: String,
        credential: StoredCredential
    ) throws(CeremonyFailure) -> VerifiedAssertion {
        let client: ClientData
        do { client = try ClientData(clientDataJSON) } catch { throw .clientData(error) }
        let data: AuthenticatorData
        do { data = try AuthenticatorData(authenticatorData) } catch { throw .authenticatorData(error) }
        try checkShared(client, type: "webauthn.get", challenge: challenge, data: data)
        // Steps 19-20: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        guard signature.count <= 1024, credential.publicKey.isValidSignature(signature, for: signed) else {
            throw .badSignature
        }
        // Step 22: a counter that is in use must go up.
        if data.signCount != 0 || credential.signCount != 0, data.signCount <= credential.signCount {
            throw .counterWentBack
        }
        return VerifiedAssertion(signCount: data.signCount, backedUp: data.flags.backedUp)
    }
}
