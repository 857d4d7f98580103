import AuthCore

/// The authorization endpoint's decision (OpenID Connect Core §3.1.2.3 and §3.1.2.4), pure: from
/// the validated request, the person signed in (if anyone), when this request first came and
/// whether they agreed to the app before, where the request leads. ``OIDCProvider/next(for:person:pendingSince:askConsent:)``
/// reads what it needs, asks this, and issues the code when the answer is to.
public enum AuthorizationRules {
    public enum Decision: Sendable, Equatable {
        /// To Login; `again`: the person is signed in, but not freshly enough for this request.
        case signIn(again: Bool)
        /// To the consent page.
        case consent
        /// Back to the app with an error (`prompt=none` when a page would be needed).
        case refuse(AuthorizationError.Code, String)
        /// Back to the app with a code.
        case issueCode
        /// The answer turns on the person's consent to this app, which was not read: read it,
        /// and ask again with it.
        case readConsent
    }

    /// What the request leads to.
    ///
    /// - Parameter pendingSince: when this request first came to the provider (seconds since
    ///   1970; `nil`: it is not the request the browser is signing in for). A sign-in at or after
    ///   it was made for this request, so it meets `prompt=login`, `max_age` and `acr_values`.
    /// - Parameter consented: the person agreed before to every scope asked; `nil` when it was not
    ///   read (it is read only when the answer turns on it: a signed-in person, fresh enough, and
    ///   an app that is not first-party, which is never asked).
    /// - Parameter askConsent: `false` when the consent page itself asks (its answer is judged).
    /// - Parameter freshProofWithin: how recent a sign-in `acr_values` accepts (`--confirm-within`).
    public static func decide(
        _ request: AuthorizationRequest, person: OIDCProvider.Person?, pendingSince: Double?, consented: Bool?,
        askConsent: Bool = true, freshProofWithin: Double, now: Double
    ) -> Decision {
        guard let person else {
            return request.prompt.none ? .refuse(.loginRequired, "The person is not signed in.") : .signIn(again: false)
        }
        let signedInFresh = pendingSince.map { person.authTime >= $0 } ?? false
        // A sign-in time after now (the clock was set back) is no fresh sign-in.
        let tooOld =
            !SignInRules.hasHappened(person.authTime, by: now)
            || request.maxAge.map { now - person.authTime > Double($0) } ?? false
            || request.asksFreshProof && now - person.authTime > freshProofWithin
        if !signedInFresh, request.prompt.login || tooOld {
            return request.prompt.none
                ? .refuse(.loginRequired, "The sign-in is older than max_age.") : .signIn(again: true)
        }
        guard askConsent else { return .consent }
        if !request.client.firstParty {
            if request.prompt.consent { return .consent }
            guard let consented else { return .readConsent }
            if !consented {
                return request.prompt.none ? .refuse(.consentRequired, "The person has not agreed yet.") : .consent
            }
        }
        return .issueCode
    }
}
