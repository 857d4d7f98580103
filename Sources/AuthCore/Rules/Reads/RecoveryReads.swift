import Foundation

/// What ``SignInRules/proveRecovery(_:given:)`` reads: the account on the typed number and
/// whether the code is one of its unused recovery codes, and the number's and the client's wrong
/// recovery tries in their windows. The number (and the client) are locked, so tries made at
/// once are judged one after another and no more than the limit are ever looked at.
public struct RecoveryReads: ReadPlan {
    public let list: ReadList
    private let match: Read<RecoveryCodeMatch>
    private let numberFailures: Read<LimitWindow>
    private let clientFailures: Read<LimitWindow>
    private let session: Read<SessionRecord?>

    init(_ request: RecoveryProof, policy: SignInPolicy) {
        let phone = request.phone.e164
        let now = request.now.timeIntervalSince1970
        var list = ReadList(locks: [.phone(phone)] + (request.client.map { [.client($0)] } ?? []))
        match = list.recoveryCode(phone: phone, digest: request.codeDigest, account: request.claim?.account)
        session = list.session(request.claim?.session)
        numberFailures = list.limit(
            .phoneRecoveryFailures, of: phone, max: policy.maxRecoveryFailuresPerNumber,
            per: policy.recoveryFailuresWindow, now: now)
        clientFailures =
            request.client.map {
                list.limit(
                    .clientRecoveryFailures, of: $0, max: policy.maxRecoveryFailuresPerClient,
                    per: policy.recoveryFailuresWindow, now: now)
            } ?? .known(.notCounted)
        self.list = list
    }

    public func found(in answers: Answers) throws -> RecoveryFound {
        RecoveryFound(
            match: try answers[match], numberFailures: try answers[numberFailures],
            clientFailures: try answers[clientFailures], session: try answers[session])
    }
}

/// What ``RecoveryReads`` found.
public struct RecoveryFound: Sendable, Equatable {
    var match: RecoveryCodeMatch
    var numberFailures: LimitWindow
    var clientFailures: LimitWindow
    /// "Is this your account?": the waiting session.
    var session: SessionRecord?

    public init(
        match: RecoveryCodeMatch, numberFailures: LimitWindow, clientFailures: LimitWindow,
        session: SessionRecord? = nil
    ) {
        self.match = match
        self.numberFailures = numberFailures
        self.clientFailures = clientFailures
        self.session = session
    }
}
