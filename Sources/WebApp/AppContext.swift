import AuthCore
import ConsoleCore
import GatewayCore
import HTTPLite
import Logging
import WalletCore
import Wording

/// Per-request state of this app: HTTPLite's part plus the session the cookie named.
struct AppContext: RootRequestContext {
    var logger: Logger
    var parameters = Parameters()
    let matchedRoute: MatchedRoute
    /// The session token from the cookie, when it names a live session.
    var sessionToken: SessionToken?
    /// What that session stands for.
    var session: SessionState?
    /// That session's row (when and how its person signed in), read with it; nil in Home's
    /// group, which reads its overview with the session instead (``SessionMiddleware``), and in
    /// the API's, whose tokens are read elsewhere.
    var sessionRecord: SessionRecord?
    /// Home's wallet overview when it was read with the session (``SessionMiddleware``).
    var homeOverview: Overview?
    /// The console's group: whether the session's person has a passkey that is not turned off,
    /// read with the session (``SessionMiddleware``); nil elsewhere.
    var hasLivePasskey: Bool?
    /// The CSRF token every form on the page must carry.
    var csrfToken = ""
    /// The cookie named a session that is no longer live (expired, or ended elsewhere): Verify
    /// then sends the person to Login with "Your sign-in expired." rather than without a word.
    var sessionEnded = false
    /// Cookies are set `Secure` (`--https`): for the ones a group's context sets with the
    /// redirect it throws, which has no configuration of its own to ask.
    var secureCookies = false
    /// Gateway mode: where a protected app sent this person from (Login's `rd=`), to send them
    /// back to once signed in (``ReturnAddressMiddleware``).
    var returnAddress: ReturnAddress?
    /// The language the answer is in (``LanguageChoice``).
    var language: Language = .english
    /// "Confirm it's you": the session holds a proof younger than `--confirm-within`
    /// (``ProofCheck`` looked, in the groups of sensitive pages only).
    var proofIsFresh = false
    /// Where the confirmation page returns to: this page (a GET), or the page a form came from.
    var confirmNext = "/home"
    /// The console: whether it is open to this operator (``OperatorGate`` decided; nil outside
    /// `/admin`), and where their passkey proof returns to.
    var console: ConsoleAccess?
    var consoleNext = "/admin"

    init(source: RequestContextSource) {
        self.logger = source.logger
        self.matchedRoute = source.matchedRoute
    }

    /// The signed-in user, if any.
    var user: User? {
        if case .signedIn(let user) = session { user } else { nil }
    }

    /// The phone a code was sent to, while signing in.
    var pendingPhone: PhoneNumber? {
        if case .pending(let phone) = session { phone } else { nil }
    }

    /// "Is this your account?" waiting: the number, and the account it is on.
    var claim: (phone: PhoneNumber, account: Int64)? {
        if case .claiming(let phone, let account) = session { (phone, account) } else { nil }
    }
}

extension AppContext {
    /// The live session's row: the one ``SessionMiddleware`` read with the session, or (in
    /// Home's group) read now.
    func sessionRecord(_ signIn: SignInService) async throws -> SessionRecord? {
        if let sessionRecord { return sessionRecord }
        guard let sessionToken else { return nil }
        return try await signIn.sessionRecord(of: sessionToken)
    }
}
