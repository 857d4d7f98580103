import Encodings
import Foundation

/// What the browser sends back, as `PublicKeyCredential.toJSON()` gives it (WebAuthn Level 3
/// §5.1.10): every byte string in base64url. Parsed into bytes, or refused as ``Failure``.
public enum CredentialJSON {
    public enum Failure: Error, Equatable, Sendable {
        /// Not the JSON shape of the ceremony's answer, a byte string that is not base64url, or
        /// `type` other than `public-key`.
        case malformed
        /// `id` and `rawId` name different credentials.
        case idMismatch
    }

    /// A registration's answer: the two byte strings the checks take, and the credential id.
    public struct Registration: Sendable, Equatable {
        public let credentialID: [UInt8]
        public let clientDataJSON: [UInt8]
        public let attestationObject: [UInt8]
    }

    /// A sign-in's answer.
    public struct Assertion: Sendable, Equatable {
        public let credentialID: [UInt8]
        public let clientDataJSON: [UInt8]
        public let authenticatorData: [UInt8]
        public let signature: [UInt8]
        public let userHandle: [UInt8]?
    }

    /// The JSON as sent (`RegistrationResponseJSON`, `AuthenticationResponseJSON`): strings,
    /// before any is decoded. Other members (`clientExtensionResults`, `transports`, …) are
    /// ignored.
    public struct Envelope<Response: Decodable & Sendable>: Decodable, Sendable {
        let id: String
        let rawId: String?
        let type: String
        let response: Response
    }

    public struct AttestationFields: Decodable, Sendable {
        let clientDataJSON: String
        let attestationObject: String
    }

    public struct AssertionFields: Decodable, Sendable {
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
        let userHandle: String?
    }

    public typealias RegistrationJSON = Envelope<AttestationFields>
    public typealias AssertionJSON = Envelope<AssertionFields>

    public static func registration(_ json: Data) throws(Failure) -> Registration {
        try registration(try decode(RegistrationJSON.self, json))
    }

    public static func assertion(_ json: Data) throws(Failure) -> Assertion {
        try assertion(try decode(AssertionJSON.self, json))
    }

    public static func registration(_ envelope: RegistrationJSON) throws(Failure) -> Registration {
        let id = try credentialID(envelope)
        guard let client = Base64URL.decode(envelope.response.clientDataJSON),
            let attestation = Base64URL.decode(envelope.response.attestationObject)
        else { throw .malformed }
        return Registration(credentialID: id, clientDataJSON: client, attestationObject: attestation)
    }

    public static func assertion(_ envelope: AssertionJSON) throws(Failure) -> Assertion {
        let id = try credentialID(envelope)
        let fields = envelope.response
        guard let client = Base64URL.decode(fields.clientDataJSON),
            let data = Base64URL.decode(fields.authenticatorData), let signature = Base64URL.decode(fields.signature)
        else { throw .malformed }
        var handle: [UInt8]?
        if let text = fields.userHandle, !text.isEmpty {
            guard let bytes = Base64URL.decode(text) else { throw .malformed }
            handle = bytes
        }
        return Assertion(
            credentialID: id, clientDataJSON: client, authenticatorData: data, signature: signature, userHandle: handle)
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ json: Data) throws(Failure) -> Value {
        guard let value = try? JSONDecoder().decode(type, from: json) else { throw .malformed }
        return value
    }

    /// The credential id: `id`, which must equal `rawId` when both are given, 1 to 1,023 bytes.
    private static func credentialID<Response>(_ envelope: Envelope<Response>) throws(Failure) -> [UInt8] {
        guard envelope.type == "public-key", let id = Base64URL.decode(envelope.id), (1...1023).contains(id.count)
        else { throw .malformed }
        if let raw = envelope.rawId {
            guard Base64URL.decode(raw) == id else { throw .idMismatch }
        }
        return id
    }
}

/// The options the browser's `navigator.credentials.create()` and `.get()` are given, as the
/// JSON of WebAuthn Level 3 §5.4 and §5.5 (`PublicKeyCredentialCreationOptionsJSON`,
/// `PublicKeyCredentialRequestOptionsJSON`): a discoverable credential, user verification
/// required, attestation `none`, ES256 or RS256.
public enum CredentialOptions {
    /// How long the browser waits for the person, in milliseconds (the challenge lives as long).
    public static func timeout(seconds: Double) -> Int { Int(seconds * 1000) }

    public struct Creation: Encodable, Sendable, Equatable {
        public struct Party: Encodable, Sendable, Equatable {
            public let id: String
            public let name: String
        }
        public struct UserEntity: Encodable, Sendable, Equatable {
            public let id: String
            public let name: String
            public let displayName: String
        }
        public struct Parameter: Encodable, Sendable, Equatable {
            public let type: String
            public let alg: Int
        }
        public struct Descriptor: Encodable, Sendable, Equatable {
            public let type: String
            public let id: String
        }
        public struct Selection: Encodable, Sendable, Equatable {
            public let residentKey: String
            public let requireResidentKey: Bool
            public let userVerification: String
        }

        public let rp: Party
        public let user: UserEntity
        public let challenge: String
        public let pubKeyCredParams: [Parameter]
        public let timeout: Int
        public let excludeCredentials: [Descriptor]
        public let authenticatorSelection: Selection
        public let attestation: String

        public init(
            relyingParty: RelyingParty, siteName: String, userHandle: [UInt8], userName: String, challenge: [UInt8],
            exclude: [[UInt8]], timeoutSeconds: Double
        ) {
            rp = Party(id: relyingParty.id, name: siteName)
            user = UserEntity(id: Base64URL.encode(userHandle), name: userName, displayName: userName)
            self.challenge = Base64URL.encode(challenge)
            pubKeyCredParams = COSEKey.Algorithm.allCases.map { Parameter(type: "public-key", alg: $0.rawValue) }
            timeout = CredentialOptions.timeout(seconds: timeoutSeconds)
            excludeCredentials = exclude.map { Descriptor(type: "public-key", id: Base64URL.encode($0)) }
            authenticatorSelection = Selection(
                residentKey: "required", requireResidentKey: true, userVerification: "required")
            attestation = "none"
        }
    }

    public struct Request: Encodable, Sendable, Equatable {
        public let challenge: String
        public let rpId: String
        public let timeout: Int
        public let userVerification: String
        /// Empty: the person picks any of their passkeys for this site (discoverable credentials).
        public let allowCredentials: [Creation.Descriptor]

        public init(relyingParty: RelyingParty, challenge: [UInt8], timeoutSeconds: Double) {
            self.challenge = Base64URL.encode(challenge)
            rpId = relyingParty.id
            timeout = CredentialOptions.timeout(seconds: timeoutSeconds)
            userVerification = "required"
            allowCredentials = []
        }
    }
}
