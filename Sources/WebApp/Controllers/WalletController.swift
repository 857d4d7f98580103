import AuthCore
import HTTPLite
import WalletCore

/// Home and the account pages: the wallet of the original app, for the signed-in person only
/// (every route is in a group with ``SignedInContext``).
///
/// Every form posts with its CSRF token and a one-time `key`; a change succeeds with a 303 to
/// the page that shows it (so a refresh re-reads, never re-posts), and a replayed key lands on
/// the same page without doing anything twice. The key is kept with the form's fingerprint
/// (``RequestFingerprint``): sent again with another action or other fields, it is refused. An account id of someone else's is 404, the
/// same as one that does not exist.
struct WalletController: Sendable {
    let wallet: Wallet
    let pages: Pages
    /// What a change says on the page it lands on, once.
    let notice: WalletNotice
    /// Whether Home offers a passkey: its cookie, set at a sign-in by text, and the person's
    /// answer kept in the database (a passkey made, or "Not now" said, in another browser).
    var passkeyCookies: PasskeyCookies? = nil
    var passkeys: PasskeyService? = nil

    /// - Parameters:
    ///   - signedIn: the account pages and the wallet forms.
    ///   - home: Home alone, whose group reads the overview with the session.
    func register(signedIn: RouteScope<SignedInContext>, home: RouteScope<SignedInContext>) {
        home.get("/home", use: self.home)
        signedIn.post("/home/name", use: setName)
        signedIn.post("/accounts", use: addAccount)
        signedIn.get("/accounts/:id", use: showAccount)
        signedIn.post("/accounts/:id/deposit", use: deposit)
        signedIn.post("/accounts/:id/withdraw", use: withdraw)
        signedIn.post("/accounts/:id/transfer", use: transfer)
        signedIn.post("/accounts/:id/rename", use: rename)
        signedIn.post("/accounts/:id/delete", use: delete)
        // A refused form is answered at its own address; Reload or Back there later (Safari's
        // back/forward cache asks again with GET) gets the page as it stands now, never a 405.
        signedIn.get("/home/name", use: reloadHome)
        signedIn.get("/accounts", use: reloadHome)
        for action in ["deposit", "withdraw", "transfer", "rename", "delete"] {
            signedIn.get("/accounts/:id/\(action)", use: reloadAccount)
        }
    }

    @Sendable func home(_ request: Request, _ context: SignedInContext) async throws -> Response {
        showingNotice(
            request,
            try await homePage(
                context.user, context, notice: notice.saying(in: request).map { pages.in(context.language).words($0) },
                offersPasskey: try await offersPasskey(request, context.user)))
    }

    private func offersPasskey(_ request: Request, _ user: User) async throws -> Bool {
        guard let passkeyCookies, let passkeys, passkeyCookies.offers(in: request) else { return false }
        return try await passkeys.offers(to: user)
    }

    /// Drops the notice cookie once its page is shown, so a reload does not say it again.
    private func showingNotice(_ request: Request, _ page: Response) -> Response {
        guard request.cookie(WalletNotice.cookieName) != nil else { return page }
        var page = page
        page.setCookie(notice.cleared)
        return page
    }

    @Sendable func setName(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try await change(request, context, onError: .home(.setName)) { user, form, key in
            try await wallet.setDisplayName(user: user.id, to: form["name"] ?? "", key: key)
        }
    }

    @Sendable func addAccount(_ request: Request, _ context: SignedInContext) async throws -> Response {
        try await change(request, context, onError: .home(.addAccount)) { user, form, key in
            try await wallet.addAccount(
                user: user.id, name: form["name"],
                numbered: pages.in(context.language).words("home.accountPlaceholder", ["number": "{number}"]), key: key)
        }
    }

    @Sendable func reloadHome(_ request: Request, _ context: SignedInContext) async throws -> Response {
        .redirect(to: "/home")
    }

    @Sendable func reloadAccount(_ request: Request, _ context: SignedInContext) async throws -> Response {
        .redirect(to: "/accounts/\(try accountID(context))")
    }

    @Sendable func showAccount(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let page = try await accountPage(
            context.user, context, id: try accountID(context),
            notice: notice.saying(in: request).map { pages.in(context.language).words($0) })
        return showingNotice(request, page)
    }

    @Sendable func deposit(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let id = try accountID(context)
        return try await change(request, context, onError: .account(id, .deposit)) { user, form, key in
            try await wallet.deposit(user: user.id, account: id, amount: try Self.amount(form), key: key)
        }
    }

    @Sendable func withdraw(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let id = try accountID(context)
        return try await change(request, context, onError: .account(id, .withdraw)) { user, form, key in
            try await wallet.withdraw(user: user.id, account: id, amount: try Self.amount(form), key: key)
        }
    }

    @Sendable func transfer(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let id = try accountID(context)
        return try await change(request, context, onError: .account(id, .transfer)) { user, form, key in
            guard let target = form["to"].flatMap(Int64.init) else { throw WalletError.accountNotFound }
            return try await wallet.transfer(
                user: user.id, from: id, to: target, amount: try Self.amount(form), key: key)
        }
    }

    @Sendable func rename(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let id = try accountID(context)
        return try await change(request, context, onError: .account(id, .rename)) { user, form, key in
            try await wallet.rename(user: user.id, account: id, to: form["name"] ?? "", key: key)
        }
    }

    @Sendable func delete(_ request: Request, _ context: SignedInContext) async throws -> Response {
        let id = try accountID(context)
        return try await change(request, context, onError: .account(id, .delete)) { user, form, key in
            try await wallet.delete(user: user.id, account: id, key: key)
        }
    }

    // MARK: Shared steps

    /// Where a refused change is shown again, and which of the page's forms it came from (its
    /// sentence goes next to that form).
    enum ErrorPage {
        case home(WalletFormError.Form)
        /// The account page; the amount typed into a money form is echoed back in it.
        case account(Int64, WalletFormError.Form)
    }

    /// Runs one change for the signed-in person: 303 to the page that shows its result, or the
    /// page again with the sentence saying why not (422; an account that is not theirs is the
    /// error page's 404).
    private func change(
        _ request: Request, _ context: SignedInContext, onError: ErrorPage,
        _ body: (User, URLEncodedForm, OperationKey) async throws -> Receipt
    ) async throws -> Response {
        let user = context.user
        let form = try request.formData()
        do {
            // Every wallet form carries its one-time key; a post without one is not applied.
            guard let key = form["key"] else { throw WalletError.invalidOperationKey }
            let receipt = try await body(
                user, form, OperationKey(key, fingerprint: RequestFingerprint.form(request, form)))
            var response = Response.redirect(to: Self.location(after: receipt))
            response.setCookie(notice.cookie(after: receipt, amount: try? Money(parsing: form["amount"] ?? "")))
            return response
        } catch let error as WalletError where error != .accountNotFound {
            switch onError {
            case .home(let source):
                // What was typed is kept, as the amounts are on the account page.
                return try await homePage(
                    user, context, error: WalletFormError(form: source, error: error), typedName: form["name"])
            case .account(let id, let source):
                let amount = form["amount"].map { [source.rawValue: $0] } ?? [:]
                return try await accountPage(
                    user, context, id: id, error: WalletFormError(form: source, error: error), amounts: amount)
            }
        }
    }

    static func location(after receipt: Receipt) -> String {
        switch receipt.action {
        case .setName, .delete: "/home"
        case .addAccount, .deposit, .withdraw, .transfer, .rename: "/accounts/\(receipt.accountID ?? 0)"
        }
    }

    private func homePage(
        _ user: User, _ context: SignedInContext, notice: String? = nil, error: WalletFormError? = nil,
        typedName: String? = nil, offersPasskey: Bool = false
    ) async throws -> Response {
        let overview: Overview
        if let prefetched = context.homeOverview {
            overview = prefetched
        } else {
            overview = try await wallet.overview(user: user.id, defaultName: user.phone.nationalFormat)
        }
        return try pages.in(context.language).home(
            csrf: context.csrfToken, user: user, overview: overview, notice: notice, error: error,
            typedName: typedName, offersPasskey: offersPasskey)
    }

    private func accountPage(
        _ user: User, _ context: SignedInContext, id: Int64, notice: String? = nil, error: WalletFormError? = nil,
        amounts: [String: String] = [:]
    ) async throws -> Response {
        let account = try await wallet.account(user: user.id, id: id)
        let others = try await wallet.overview(user: user.id, defaultName: "").accounts.filter { $0.id != id }
        let history = try await wallet.history(user: user.id, account: id)
        return try pages.in(context.language).account(
            csrf: context.csrfToken, account: account, others: others, history: history, notice: notice, error: error,
            amounts: amounts)
    }

    private func accountID(_ context: SignedInContext) throws -> Int64 {
        guard let id = context.parameters["id"].flatMap(Int64.init), id > 0 else { throw WalletError.accountNotFound }
        return id
    }

    private static func amount(_ form: URLEncodedForm) throws -> Money {
        do {
            return try Money(parsing: form["amount"] ?? "")
        } catch {
            throw WalletError.amount(error)
        }
    }
}
