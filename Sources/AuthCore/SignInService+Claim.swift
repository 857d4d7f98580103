import Foundation

/// A right code for a number whose account may be someone else's now (the recycled-number
/// guard): nobody was signed in. The pages show "Is this your account?" with `claim` as the
/// session; the API answers `account_dormant` with it as the `claim_id`.
public struct DormantAccount: Error, Equatable, Sendable {
    /// The session now waiting on "Is this your account?".
    public let claim: SessionToken
    /// When the number last signed in here with a code.
    public let numberLastUsed: Date
    /// What can prove the account yours; with neither, only a fresh start (or an operator) is
    /// left.
    public let waysBack: WaysBack
}

/// A passkey proved an account that is detached from its number (its number's new holder
/// started afresh): nobody was signed in. The pages continue as "Lost your phone or number?"
/// does after a recovery code: a new number for the account.
public struct DetachedAccount: Error, Equatable, Sendable {
    public let account: Int64
}

/// "Is this your account?": the answers.
extension SignInService {
    /// "It's mine", with one of the account's recovery codes (`codeDigest`: its keyed digest,
    /// nil when what was typed cannot be one): spent, and the person signs in. Wrong tries count
    /// as a recovery's do.
    /// `api`: answered through the JSON API (the session begun is an API token).
    public func claim(
        _ session: SessionToken, phone: PhoneNumber, account: Int64, codeDigest: Data?, client: String? = nil,
        userAgent: String? = nil, api: Bool = false
    ) async throws -> SignedIn {
        guard let codeDigest else { throw RecoveryError.malformedCode }
        let now = clock()
        let signedIn = SessionToken.generate()
        let request = RecoveryProof(
            phone: phone, codeDigest: codeDigest, client: client, now: now,
            claim: .init(
                session: session.storageKey, account: account, signedIn: signedIn.storageKey, userAgent: userAgent,
                api: api))
        let rules = self.rules
        let outcome = try await store.transaction(rules.recoveryReads(request)) { found in
            rules.proveRecovery(request, given: found)
        }.outcome
        switch outcome {
        case .proved(let user, _, _, _):
            metrics.verification("dormant_claimed")
            logger.notice("A dormant account proved its owner's", metadata: ["user": "\(user)"])
            return SignedIn(session: signedIn, user: User(id: user, phone: phone))
        case .wrong, .numberLimited, .clientLimited:
            throw refusal(outcome, now: now)
        case .claimEnded:
            throw SignInError.noPendingSignIn
        }
    }

    /// "This number is new to me": a fresh account for the number signs in, and the old one is
    /// detached from it (``SignInRules/startFresh(_:given:)``).
    public func startFresh(
        _ session: SessionToken, phone: PhoneNumber, account: Int64, userAgent: String? = nil, api: Bool = false,
        client: String? = nil
    ) async throws -> SignedIn {
        let signedIn = SessionToken.generate()
        let request = FreshStart(
            claim: session.storageKey, phone: phone, account: account, signedIn: signedIn.storageKey,
            userAgent: userAgent, now: clock(), api: api, client: client)
        let rules = self.rules
        let applied = try await store.transaction(rules.freshStartReads(request)) { found in
            rules.startFresh(request, given: found)
        }
        guard applied.outcome == .started, let user = applied.signedInUserID else { throw SignInError.noPendingSignIn }
        metrics.verification("dormant_fresh")
        logger.notice("A number's new holder started a fresh account", metadata: ["phone": "\(phone.masked)"])
        return SignedIn(session: signedIn, user: User(id: user, phone: phone))
    }
}

extension SignInService {
    /// The number's account as the recycled-number guard sees it (for "Is this your account?":
    /// when the number last proved itself, and whether the account can be proved yours).
    public func dormancy(of phone: PhoneNumber) async throws -> Dormancy? {
        try await store.read(SingleRead { $0.dormancy(phone: phone.e164, device: nil, now: clock().timeIntervalSince1970) })
    }
}
