import AuthCore
import HTTPLite
import Logging
import WalletCore
import Wording

// Who may see a page, said once: each route group's handlers take one of these contexts, made
// from the ``AppContext`` after the group's session lookup. A context that cannot be made (a
// signed-out person on Home) refuses with the answer that visitor gets instead, so no handler
// checks for a user again.

/// What every group's context keeps from the ``AppContext`` it was made from.
protocol AppChildContext: ChildRequestContext where ParentContext == AppContext {
    var app: AppContext { get set }
}

/// HTTPLite's part of a context and the CSRF token, forwarded to the parent.
extension AppChildContext {
    var logger: Logger {
        get { app.logger }
        set { app.logger = newValue }
    }
    var parameters: Parameters {
        get { app.parameters }
        set { app.parameters = newValue }
    }
    var matchedRoute: MatchedRoute { app.matchedRoute }
    /// The CSRF token every form on the page must carry.
    var csrfToken: String { app.csrfToken }
    /// The language the answer is in.
    var language: Language { app.language }
}

/// Login: for anyone not signed in (a sign-in may be in progress); a signed-in person goes to
/// Home, so the back button cannot bring Login back (in gateway mode, to the protected app
/// that sent them, when one did).
struct SignedOutContext: AppChildContext {
    var app: AppContext

    init(context: AppContext) throws {
        if context.user != nil { throw context.returnAddress.map { Redirect(location: $0.url) } ?? Redirect.toHome }
        app = context
    }

    /// The session a sign-in in progress has, if any.
    var sessionToken: SessionToken? { app.sessionToken }
    /// The phone that sign-in's code went to.
    var pendingPhone: PhoneNumber? { app.pendingPhone }
}

/// Verify: for a sign-in in progress only; signed in goes to Home, anyone else to Login (saying
/// the sign-in expired when the cookie named one that ended).
struct PendingSignInContext: AppChildContext {
    var app: AppContext
    /// The session that is signing in.
    let session: SessionToken
    /// The phone the code went to.
    let phone: PhoneNumber

    init(context: AppContext) throws {
        if context.user != nil { throw Redirect.toHome }
        if context.claim != nil { throw Redirect(location: "/claim") }
        guard let session = context.sessionToken, let phone = context.pendingPhone else {
            throw context.sessionEnded ? Redirect.toLoginExpired(secure: context.secureCookies) : Redirect.toLogin
        }
        (app, self.session, self.phone) = (context, session, phone)
    }
}

/// "Is this your account?": a right code came for a number whose account may be someone else's
/// now; only its answer is open (the person is not signed in). Signed in goes to Home, anyone
/// else to Login.
struct ClaimingContext: AppChildContext {
    var app: AppContext
    let session: SessionToken
    let phone: PhoneNumber
    /// The account the number is on.
    let account: Int64

    init(context: AppContext) throws {
        if context.user != nil { throw Redirect.toHome }
        guard let session = context.sessionToken, let claim = context.claim else { throw Redirect.toLogin }
        (app, self.session, self.phone, self.account) = (context, session, claim.phone, claim.account)
    }
}

/// Home, the accounts and the wallet forms: the signed-in person only; anyone else goes to Login.
struct SignedInContext: AppChildContext {
    var app: AppContext
    let user: User

    init(context: AppContext) throws {
        guard let user = context.user else { throw Redirect.toLogin }
        (app, self.user) = (context, user)
    }

    /// Home's wallet overview when Home's group read it with the session.
    var homeOverview: Overview? { app.homeOverview }
}

/// Something sensitive (removing a passkey, signing out everywhere else): the signed-in person
/// with a proof younger than `--confirm-within` (``ProofCheck`` looked). A person without one
/// goes to "Confirm it's you" (`/confirm?next=…`), which keeps them signed in; signed out,
/// Login. A handler in this group cannot forget to ask.
struct ConfirmedContext: AppChildContext {
    var app: AppContext
    let user: User

    init(context: AppContext) throws {
        guard let user = context.user else { throw Redirect.toLogin }
        guard context.proofIsFresh else { throw Redirect.toConfirm(next: context.confirmNext) }
        (app, self.user) = (context, user)
    }

    /// The same person's ordinary signed-in context (for pages shared with that group).
    var signedIn: SignedInContext {
        get throws { try SignedInContext(context: app) }
    }
}

/// The JSON API's calls with a bearer token (``BearerAuthentication``): 401 without a valid one.
/// A sensitive API call (the account's data, number or deletion): a bearer token whose
/// verification is younger than `--confirm-within` (``ProofCheck`` looked); an older one is 401
/// `reauthentication_required`.
struct APIConfirmedContext: AppChildContext {
    var app: AppContext
    let user: User
    let token: SessionToken

    init(context: AppContext) throws {
        guard let user = context.user, let token = context.sessionToken else { throw APIError.unauthorized }
        guard context.proofIsFresh else { throw APIError.reauthenticationRequired }
        (app, self.user, self.token) = (context, user, token)
    }
}

struct APIUserContext: AppChildContext {
    var app: AppContext
    let user: User
    /// The token the call came with (logout ends it).
    let token: SessionToken

    init(context: AppContext) throws {
        guard let user = context.user, let token = context.sessionToken else { throw APIError.unauthorized }
        (app, self.user, self.token) = (context, user, token)
    }
}
