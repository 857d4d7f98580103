import Foundation
import WebAuthnCore
import Wording

/// Why creating a passkey or signing in with one did not go through. What people are told is
/// ``saying``, in their language; ``description`` is for the log and holds no secret.
public enum PasskeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Passkeys are not offered here (no `--public-url`).
    case unavailable
    /// The challenge expired, was used, or was never given to this asker.
    case challengeExpired
    /// No passkey with this id (removed, or made for another site).
    case unknownPasskey
    /// The user handle the authenticator returned is not the passkey's person's.
    case notYours
    /// Turned off after a counter that did not go up.
    case turnedOff
    /// This sign-in's counter did not go up: refused, and the passkey turned off.
    case counterWentBack
    /// The person has ``SignInRules/maxPasskeysPerUser`` passkeys already.
    case tooMany
    /// The credential is registered already.
    case alreadyRegistered
    /// The browser's answer is not the JSON of a credential.
    case malformed(CredentialJSON.Failure)
    /// The ceremony's checks refused it.
    case refused(CeremonyFailure)
    /// The stored key does not parse.
    case storedKeyUnreadable
    /// A name that is empty or over 64 characters, or holds control characters.
    case badName
    /// No passkey of this person's has this id.
    case noSuchPasskey
    /// The client holds too many unanswered sign-in challenges (a page asks for one as it opens).
    case tooManyRequests(seconds: Int)
    /// An operator's account (its passkeys open the console) takes a new passkey only from a
    /// session proved by one of its passkeys lately, or through the shell's enrollment link.
    case operatorProofNeeded

    public var description: String {
        switch self {
        case .malformed(let failure): "passkey.malformed(\(failure))"
        case .refused(let failure): "passkey.refused(\(failure))"
        case .counterWentBack: "passkey.counterWentBack (turned off now)"
        case .notYours: "passkey.notYours (the user handle is another person's)"
        default: saying.key
        }
    }

    public var saying: Phrase {
        switch self {
        case .unavailable: Phrase("passkey.unavailable")
        case .challengeExpired: Phrase("passkey.challengeExpired")
        case .unknownPasskey: Phrase("passkey.unknown")
        case .notYours, .malformed, .refused, .storedKeyUnreadable: Phrase("passkey.notAccepted")
        case .turnedOff, .counterWentBack: Phrase("passkey.turnedOff")
        case .tooMany: Phrase("passkey.tooMany", ["count": .text(String(SignInRules.maxPasskeysPerUser))])
        case .alreadyRegistered: Phrase("passkey.alreadyAdded")
        case .badName: Phrase("passkey.badName")
        case .noSuchPasskey: Phrase("passkey.noSuchPasskey")
        case .tooManyRequests(let seconds): Phrase("passkey.tooManyRequests", ["wait": .wait(seconds: seconds)])
        case .operatorProofNeeded: Phrase("passkey.operatorProofNeeded")
        }
    }
}
