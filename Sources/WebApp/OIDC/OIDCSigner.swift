import AuthCore
import Foundation
import GatewayCore
import HTMLRender
import HTTPLite
import JWTKit
import Logging
import NIOCore
import OIDCCore
import Prometheus
import SMSProviders
import ServiceLifecycle
import UnixSignals
import WalletCore
import Wording

/// The OpenID Connect provider's tokens signed and checked with the gateway's keys.
struct OIDCSigner: TokenSigner {
    let signer: AssertionSigner

    var keyID: String { signer.keyID }
    var signsRS256: Bool { signer.rsaKeyID != nil }

    func sign<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        try await signer.sign(payload, type: type)
    }

    func signRS256<Payload: JWTPayload>(_ payload: Payload, type: String) async throws -> String {
        try await signer.signRS256(payload, type: type)
    }

    func verify<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload {
        try await signer.verify(token, as: payload)
    }
}
