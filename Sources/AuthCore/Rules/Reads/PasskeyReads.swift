import Foundation

/// What ``SignInRules/register(_:given:)`` reads: the challenge the session was given, the
/// person's passkeys (the most one may have), and any passkey with the new credential's id.
public struct RegistrationReads: ReadPlan {
    public let list: ReadList
    private let challenge: Read<PasskeyChallenge?>
    private let passkeys: Read<UserPasskeys>
    private let existing: Read<PasskeyRecord?>

    init(_ request: PasskeyRegistration) {
        var list = ReadList(locks: [.passkey(request.challengeKey ?? request.owner)])
        challenge = list.passkeyChallenge(request.challengeKey)
        passkeys = list.userPasskeys(request.user.id)
        existing = request.credentialID.map { list.passkey($0) } ?? .known(nil)
        self.list = list
    }

    public func found(in answers: Answers) throws -> RegistrationFound {
        RegistrationFound(
            challenge: try answers[challenge], passkeys: try answers[passkeys], existing: try answers[existing])
    }
}

/// What ``RegistrationReads`` found.
public struct RegistrationFound: Sendable, Equatable {
    var challenge: PasskeyChallenge?
    var passkeys: UserPasskeys
    var existing: PasskeyRecord?
}

/// What ``SignInRules/passkeySignIn(_:given:)`` reads: the challenge the browser (or app) was
/// given, the passkey it names and the client's sign-ins in their window; all are locked, so one challenge or one counter is never
/// judged twice at once.
public struct PasskeySignInReads: ReadPlan {
    public let list: ReadList
    private let challenge: Read<PasskeyChallenge?>
    private let passkey: Read<PasskeyRecord?>
    private let clientSignIns: Read<LimitWindow>
    private let replaced: Read<SessionRecord?>

    init(_ request: PasskeyAssertion, policy: SignInPolicy) {
        var list = ReadList(
            locks: [.passkey(request.challengeKey ?? request.owner), .passkey(request.credentialID)]
                + (request.client.map { [.client($0)] } ?? []))
        challenge = list.passkeyChallenge(request.challengeKey)
        passkey = list.passkey(request.credentialID)
        clientSignIns =
            request.client.map {
                list.limit(
                    .clientSignIns, of: $0, max: policy.maxSignInsPerClient, per: policy.signInsPerClientWindow,
                    now: request.now)
            } ?? .known(.notCounted)
        replaced = list.session(request.replacing)
        self.list = list
    }

    public func found(in answers: Answers) throws -> PasskeySignInFound {
        PasskeySignInFound(
            challenge: try answers[challenge], passkey: try answers[passkey],
            clientSignIns: try answers[clientSignIns], replaced: try answers[replaced])
    }
}

/// What ``PasskeySignInReads`` found.
public struct PasskeySignInFound: Sendable, Equatable {
    var challenge: PasskeyChallenge?
    var passkey: PasskeyRecord?
    var clientSignIns: LimitWindow
    /// The session the sign-in replaces: one waiting on "Is this your account?" was made by a
    /// right code to the number.
    var replaced: SessionRecord? = nil
}
