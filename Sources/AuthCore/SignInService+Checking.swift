import Foundation
import Wording

/// The verify step, for the pages (a pending session) and the API (a `verification_id`): one
/// check of a typed code, as ``SignInRules`` decides it.
extension SignInService {
    /// The verify step: checks the typed code for the session's pending number. On success the
    /// session is replaced by a fresh signed-in one (its token is in the result).
    public func verify(session: SessionToken, codeInput: String, client: String? = nil) async throws -> SignedIn {
        guard case .pending(let phone) = try await state(of: session) else { throw SignInError.noPendingSignIn }
        return try await check(codeInput, for: phone, session: session, client: client)
    }

    /// ``verify(session:codeInput:)`` when the caller already looked the session up and found
    /// it pending for `phone` (the Verify page's group did): the check's own transaction makes
    /// sure it still is, so no second lookup is needed.
    ///
    /// With `rememberDevice`, a right code also remembers this browser for the person for
    /// ``SignInPolicy/deviceLifetime`` (the result carries the device cookie's token).
    /// `signedInAs`: the account of the asker's signed-in session ("Confirm it's you").
    public func verify(
        session: SessionToken, pendingFor phone: PhoneNumber, codeInput: String, client: String? = nil,
        rememberDevice: Bool = false, userAgent: String? = nil, rememberedHere: SessionToken? = nil,
        signedInAs: Int64? = nil
    ) async throws -> SignedIn {
        try await check(
            codeInput, for: phone, session: session, client: client,
            device: rememberDevice ? SessionToken.generate() : nil, userAgent: userAgent, rememberedHere: rememberedHere,
            signedInAs: signedInAs)
    }

    /// The JSON API's check step: the code for the number, by the holder of the
    /// `verification_id` given with it, with the same attempt limits and lock as the pages. On
    /// success a new signed-in session's token is the API token.
    public func verify(
        phoneInput: String, verificationID: String, codeInput: String, client: String? = nil,
        userAgent: String? = nil
    ) async throws -> SignedIn {
        let phone = try phone(phoneInput)
        // An id that is not even well formed holds nothing: no code is looked at.
        guard let id = SessionToken(verificationID) else { throw SignInError.codeRequestedElsewhere }
        return try await check(
            codeInput, for: phone, session: nil, holder: id.storageKey, client: client, userAgent: userAgent)
    }

    func check(
        _ codeInput: String, for phone: PhoneNumber, session: SessionToken?, holder: Data? = nil,
        client: String? = nil, device: SessionToken? = nil, userAgent: String? = nil,
        rememberedHere: SessionToken? = nil, signedInAs: Int64? = nil
    ) async throws -> SignedIn {
        // A malformed code cannot match any code, so it is no probe: the rules answer it
        // without counting a try (``CheckOutcome/malformed``).
        let candidate = OneTimeCode(codeInput).map { hasher.digest(of: $0, for: phone) }
        let signedInToken = SessionToken.generate()
        var request = CodeCheck(
            session: session?.storageKey, phone: phone, candidateDigest: candidate,
            signedInSession: signedInToken.storageKey, holder: holder, client: client,
            rememberDevice: device?.storageKey, userAgent: userAgent, now: clock())
        request.device = rememberedHere?.storageKey
        request.signedInAs = signedInAs
        let applied = try await decide(request)
        if case .dormant(_, let provedAt, let waysBack) = applied.outcome {
            metrics.verification("dormant")
            logger.notice("A sign-in to a dormant account asks whose it is", metadata: ["phone": "\(phone.masked)"])
            throw DormantAccount(
                claim: signedInToken,
                numberLastUsed: Date(timeIntervalSince1970: provedAt), waysBack: waysBack)
        }
        guard applied.outcome == .signedIn, let id = applied.signedInUserID else {
            throw StoredDataCorrupt("a sign-in that wrote no user")
        }
        let user = User(id: id, phone: phone)
        metrics.verification("signed_in")
        logger.info("Signed in", metadata: ["user": "\(user.id)", "phone": "\(phone.masked)"])
        return SignedIn(session: signedInToken, user: user, device: device)
    }

    /// "Change your number": checks the code sent to `phone` (by the session `session` is pending
    /// for, or the API's `holder`), and when it is right moves `user`'s account to `phone` in the
    /// same transaction, then texts the old number that it happened (counted like any text). A
    /// number with its own account is refused only now, once the code proved the person holds it.
    public func moveAccount(
        of user: User, to phone: PhoneNumber, session: SessionToken?, holder: Data? = nil, codeInput: String,
        client: String? = nil, language: Language = .english, userAgent: String? = nil
    ) async throws -> User {
        let id = try await moveAccount(
            user.id, from: user.phone, to: phone, session: session, holder: holder, codeInput: codeInput, client: client,
            language: language, recovering: nil, userAgent: userAgent)
        return User(id: id, phone: phone)
    }

    /// ``moveAccount(of:to:session:holder:codeInput:client:language:userAgent:)`` for the account `account`,
    /// on `from` (nil: detached, so no text goes to a number that is someone else's).
    /// `recovering` (``recoverAccount(_:from:to:session:holder:codeInput:client:language:userAgent:)``):
    /// the signed-in session to begin, and its browser; every other session ends.
    func moveAccount(
        _ account: Int64, from: PhoneNumber?, to phone: PhoneNumber, session: SessionToken?, holder: Data?,
        codeInput: String, client: String?, language: Language,
        recovering: (session: SessionToken, userAgent: String?)?, userAgent: String? = nil
    ) async throws -> Int64 {
        let notice = from.map { composer.numberChangedNotice(to: $0, newNumber: phone, in: language) }
        let request = CodeCheck(
            session: session?.storageKey, phone: phone,
            candidateDigest: OneTimeCode(codeInput).map { hasher.digest(of: $0, for: phone) },
            signedInSession: (recovering?.session ?? SessionToken.generate()).storageKey, holder: holder,
            client: client, userAgent: recovering?.userAgent ?? userAgent, now: clock(),
            purpose: CheckPurpose.moveAccount(
                user: account, from: from?.e164, notice: notice?.reference, recovering: recovering != nil))
        let outcome: CheckOutcome
        do {
            outcome = try await decide(request).outcome
        } catch is NumberChangeRace {
            throw NumberChangeError.changedMeanwhile
        }
        switch outcome {
        case .numberMoved: break
        case .numberHasAccount: throw NumberChangeError.numberHasAccount
        default: throw NumberChangeError.changedMeanwhile
        }
        metrics.verification("number_changed")
        logger.notice(
            "Account moved to a new number",
            metadata: ["user": "\(account)", "from": "\(from?.masked ?? "none")", "to": "\(phone.masked)"])
        guard let notice else { return account }
        do {
            let report = try await sms.send(notice)
            await record(report, for: notice.reference)
        } catch {
            // The account moved; the notice is told to the log, and counted (it may have gone).
            logger.error("The notice of a changed number was not sent", metadata: ["error": "\(error)"])
            metrics.deliveryFailed()
        }
        return account
    }

    /// Runs the check's decision; a refusal of the code becomes its ``SignInError``, and the
    /// outcomes of a right code are returned.
    private func decide(_ request: CodeCheck) async throws -> Applied<CheckOutcome> {
        let rules = self.rules
        let phone = request.phone
        let applied = try await store.transaction(rules.checkReads(request)) { found in
            rules.check(request, given: found)
        }
        switch applied.outcome {
        case .signedIn, .numberMoved, .numberHasAccount, .numberChangedMeanwhile, .dormant:
            return applied
        case .malformed:
            metrics.verification("malformed")
            throw SignInError.malformedCode
        case .incorrect(let remaining):
            metrics.verification(remaining == 0 ? "too_many_attempts" : "incorrect")
            logger.notice("Incorrect code", metadata: ["phone": "\(phone.masked)", "remaining": "\(remaining)"])
            throw remaining == 0 ? SignInError.tooManyAttempts : SignInError.incorrectCode
        case .expired, .noCode:
            metrics.verification("expired")
            throw SignInError.codeExpired
        case .tooManyAttempts:
            metrics.verification("too_many_attempts")
            throw SignInError.tooManyAttempts
        case .locked(let until):
            metrics.verification("locked")
            metrics.limitHit("failures")
            logger.notice("Sign-in locked after too many failed codes", metadata: ["phone": "\(phone.masked)"])
            throw SignInError.phoneLocked(seconds: max(1, wholeSeconds(from: clock(), to: until)))
        case .clientLimited(let until):
            metrics.limitHit("client_failures")
            throw SignInError.tooManyFailuresFromClient(seconds: max(1, wholeSeconds(from: clock(), to: until)))
        case .notYours:
            metrics.verification("not_yours")
            throw SignInError.codeRequestedElsewhere
        case .noPendingSession:
            throw SignInError.noPendingSignIn
        }
    }
}
