import AuthCore
import ConsoleCore
import HTTPLite
import WalletCore

/// Looks up the session the cookie names and puts it in the context; a cookie for a session
/// that is gone (expired, logged out, unknown) is deleted from the browser. Each page group has
/// one (the groups' contexts then say who may see their pages).
///
/// Home's group, the page every signed-in visit lands on, has one made with
/// ``readingHome(_:)``: the wallet overview is read in the same database round trip as the
/// session and handed to the page in the context. The console's has one made with
/// ``readingPasskey(_:of:)``: its door asks whether the operator has a passkey.
struct SessionMiddleware: Middleware {
    let signIn: SignInService
    let cookie: SessionCookie
    /// What is read together with the session, in one round trip.
    private var alongside = Alongside.nothing

    private enum Alongside {
        case nothing
        /// Home's wallet overview.
        case homeOverview(Wallet)
        /// Whether the person, if one of the operators, has a passkey that is not turned off
        /// (the console's door).
        case livePasskey(any ConsoleStore, Operators)
    }

    init(signIn: SignInService, cookie: SessionCookie) {
        self.signIn = signIn
        self.cookie = cookie
    }

    /// The same lookup that also reads the person's overview from `wallet` with the session
    /// (``WalletCore/Wallet/home(session:signIn:)``: one round trip), for Home's group.
    func readingHome(_ wallet: Wallet) -> SessionMiddleware {
        var middleware = self
        middleware.alongside = .homeOverview(wallet)
        return middleware
    }

    /// The same lookup that also reads, with the session, whether its person (when one of
    /// `operators`) has a passkey that is not turned off
    /// (``ConsoleCore/ConsoleStore/sessionAndPasskey(session:operators:)``), for the console's
    /// door (``OperatorGate``).
    func readingPasskey(_ console: any ConsoleStore, of operators: Operators) -> SessionMiddleware {
        var middleware = self
        middleware.alongside = .livePasskey(console, operators)
        return middleware
    }

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.secureCookies = cookie.secure
        let tokens = cookie.tokens(in: request)
        guard !tokens.isEmpty else {
            if request.cookie(cookie.name) != nil {
                var response = try await next(request, context)
                response.setCookie(cookie.expired())
                return response
            }
            return try await next(request, context)
        }
        // The first token that names a live session (a browser sends two in gateway mode when it
        // kept the host's own cookie from before beside the domain's).
        var live: SessionToken?
        for token in tokens where live == nil {
            switch alongside {
            case .nothing:
                let found = try await signIn.stateAndRecord(of: token)
                (context.session, context.sessionRecord) = (found?.state, found?.record)
            case .homeOverview(let wallet):
                let found = try await wallet.home(session: token, signIn: signIn)
                (context.session, context.homeOverview) = (found?.state, found?.overview)
            case .livePasskey(let console, let operators):
                let found = try await console.sessionAndPasskey(session: token.storageKey, operators: operators)
                context.session = try await signIn.state(of: token.storageKey, found: found.session)
                (context.sessionRecord, context.hasLivePasskey) =
                    context.session == nil ? (nil, nil) : (found.session, found.hasPasskey)
            }
            if context.session != nil { live = token }
        }
        guard let token = live else {
            context.sessionEnded = true
            var response = try await next(request, context)
            if !setsSessionCookie(response) {
                response.setCookie(cookie.expired())
                if tokens.count > 1, let hostOnly = cookie.expiredHostOnly() { response.setCookie(hostOnly) }
            }
            return response
        }
        context.sessionToken = token
        guard tokens.count > 1, let hostOnly = cookie.expiredHostOnly() else { return try await next(request, context) }
        // Gateway mode with two cookies of one name: one is the host's own from before. Delete it
        // and set the live session for the domain, so one cookie is left and the apps get it.
        let signedIn = context.user != nil
        var response = try await next(request, context)
        if !setsSessionCookie(response) {
            response.setCookie(hostOnly)
            response.setCookie(signedIn ? cookie.signedIn(token) : cookie.pending(token))
        }
        return response
    }

    /// Whether the handler already set (or deleted) the session cookie: then it is left as set.
    private func setsSessionCookie(_ response: Response) -> Bool {
        response.headers[values: .setCookie].contains { $0.hasPrefix(cookie.name + "=") }
    }
}
