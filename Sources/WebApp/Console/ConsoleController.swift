import AccountCore
import AuthCore
import ConsoleCore
import EventsCore
import Foundation
import HTTPLite
import HTTPTypes
import OIDCCore

/// The operators' console under `/admin` (``OperatorGate`` lets only listed operators this far):
/// the first page finds a person by their number, a person's page shows how their account
/// stands, and its actions help them (sign out everywhere, lift a lock, remove a passkey,
/// disconnect an app), each with a reason and an event naming the operator.
///
/// A person is always named by their number (`?phone=`, as typed), never by a row id: an action
/// reads the account the number holds now and acts only on that account's passkeys and apps.
struct ConsoleController: Sendable {
    let signIn: SignInService
    let accounts: any AccountStore
    let events: any EventStore
    /// The glance's counts.
    let console: any ConsoleStore
    let passkeys: PasskeyService?
    let oidc: OIDCProvider?
    let pages: Pages
    /// The same rules as the person's own deletion.
    let accountRules: AccountRules
    let clock: @Sendable () -> Date

    /// The person's page's actions, by the last part of their address.
    static let actions: [String: OperatorAction] = [
        "sign-out-everywhere": .signOutEverywhere, "unlock": .unlock, "remove-passkey": .removePasskey,
        "disconnect-app": .disconnectApp, "delete-account": .deleteAccount,
    ]
    /// The actions whose notice a person's page shows (`?done=`), by name: the page's own, and the
    /// move to a new number (``ConsoleAttachController``).
    static let notices = actions.merging(["attach-account": .attachAccount]) { own, _ in own }

    /// A person's page, by the number as typed.
    static func personPage(_ phone: String?) -> String {
        "/admin/people?" + URLEncodedForm([("phone", phone ?? "")]).encoded
    }

    func register(visitors: RouteScope<ConsoleVisitorContext>, operators: RouteScope<OperatorContext>,
                  acting: RouteScope<ActingOperatorContext>) {
        visitors.get("/admin/proof", use: proof)
        operators.get("/admin", use: first)
        operators.get("/admin/people", use: person)
        for (path, action) in Self.actions {
            acting.post("/admin/people/" + path) { request, context in try await act(action, request, context) }
            // Reload or Back on an action's answer asks its address with GET: the person's page.
            operators.get("/admin/people/" + path) { request, _ in .redirect(to: Self.personPage(request.query["phone"])) }
        }
    }

    /// "Use your passkey to open the console" (or, without one, how to add one); an operator who
    /// may act already goes on to `next`.
    @Sendable func proof(_ request: Request, _ context: ConsoleVisitorContext) async throws -> Response {
        let next = Self.consoleNext(request.query["next"])
        if context.access == .open(canAct: true) { return .redirect(to: next) }
        return try pages.in(context.language).consoleProof(
            csrf: context.csrfToken, next: next, hasPasskey: context.access != .needsPasskey,
            phone: context.user.phone, failed: request.query["failed"] != nil)
    }

    /// `next` if it is a console path; the console's first page otherwise.
    static func consoleNext(_ raw: String?) -> String {
        let next = Confirmation.safeNext(raw)
        let path = next.split(separator: "?", maxSplits: 1).first ?? ""
        // `/admin/../account` is no console page: a dot segment, raw or escaped, is refused.
        let dotted = path.split(separator: "/").contains { $0 == "." || $0 == ".." } || path.contains("%")
        guard !dotted else { return "/admin" }
        return next == "/admin" || next.hasPrefix("/admin/") || next.hasPrefix("/admin?") ? next : "/admin"
    }

    @Sendable func first(_ request: Request, _ context: OperatorContext) async throws -> Response {
        try await firstPage(context.app, deleted: request.query["done"] == "delete-account")
    }

    /// The console's first page (the glance and the search), after a search or an action that
    /// found no one, or an account deleted.
    private func firstPage(
        _ context: AppContext, typed: String = "", error: ConsoleRefusal? = nil, deleted: Bool = false
    ) async throws -> Response {
        try pages.in(context.language).consoleFirst(
            csrf: context.csrfToken, glance: try await glance(), appsOn: oidc?.apps != nil, deleted: deleted,
            typed: typed, error: error)
    }

    /// The last 48 hours at a glance, read now.
    func glance() async throws -> Glance {
        let now = clock().timeIntervalSince1970
        let policy = signIn.policy
        let counts = try await console.glance(
            since: Glance.since(now), breakerSince: now - policy.breakerWindow, settledBy: now - policy.codeLifetime,
            minCodes: policy.breakerMinCodes)
        return Glance(counts, now: now, policy: policy)
    }

    /// A person's page, found by the number as typed.
    @Sendable func person(_ request: Request, _ context: OperatorContext) async throws -> Response {
        let typed = request.query["phone"] ?? ""
        let pages = pages.in(context.language)
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(parsing: typed)
        } catch {
            return try await firstPage(context.app, typed: typed, error: .notANumber)
        }
        guard let found = try await look(at: phone) else {
            // No account holds it: those detached from it may still be helped.
            let detached = try await accounts.detachedAccounts(from: phone.e164)
            if !detached.isEmpty {
                return try pages.consoleDetached(phone: phone, detached: detached, csrf: context.csrfToken, canAct: context.canAct)
            }
            return try await firstPage(context.app, typed: typed, error: .noAccount(phone))
        }
        let done = request.query["done"].flatMap { Self.notices[$0] }
        return try pages.consolePerson(found, csrf: context.csrfToken, canAct: context.canAct, done: done)
    }

    /// Everything the person's page shows, read now; nil when no account holds the number.
    func look(at phone: PhoneNumber) async throws -> ConsolePerson? {
        let now = clock().timeIntervalSince1970
        guard let id = try await accounts.account(holding: phone.e164),
            let export = try await accounts.export(user: id, now: now)
        else { return nil }
        let user = User(id: id, phone: phone)
        let (status, lockedFor) = try await signIn.operatorActions.status(
            of: phone, dormantAfter: signIn.policy.dormantAfter, now: now)
        return ConsolePerson(
            user: user, account: export, status: status, lockedFor: lockedFor,
            passkeys: try await passkeys?.passkeys(of: user).passkeys ?? [],
            apps: try await connectedApps(of: id),
            activity: try await events.activity(user: id, since: now - 90 * 86_400, before: nil, limit: 20),
            detached: try await accounts.detachedAccounts(from: phone.e164))
    }

    /// The person's connected apps, each with its name where the app is still known.
    func connectedApps(of user: Int64) async throws -> [(consent: Consent, name: String?)] {
        guard let oidc else { return [] }
        var apps: [(consent: Consent, name: String?)] = []
        for consent in try await oidc.consents(of: user) { apps.append((consent, try await oidc.client(consent.clientID)?.name)) }
        return apps
    }

    /// One of the person's page's actions: the reason checked, the account the number holds now
    /// acted on, the event naming the operator recorded with the change; then the person's page.
    func act(_ action: OperatorAction, _ request: Request, _ context: ActingOperatorContext) async throws -> Response {
        let form = try request.formData()
        let pages = pages.in(context.language)
        let phone: PhoneNumber
        do {
            phone = try PhoneNumber(parsing: request.query["phone"] ?? "")
        } catch {
            return try await firstPage(context.app, typed: request.query["phone"] ?? "", error: .notANumber)
        }
        guard let found = try await look(at: phone) else {
            return try await firstPage(context.app, typed: phone.nationalFormat, error: .noAccount(phone))
        }
        let reason: ActionReason
        do {
            reason = try ActionReason(form["reason"])
        } catch {
            return try pages.consolePerson(
                found, csrf: context.csrfToken, canAct: true, refused: (action, .reason(error)),
                typedReason: String((form["reason"] ?? "").prefix(2000)))
        }
        // The operator's browser and network are not kept: the person reads this event too.
        let event = action.event(user: found.user.id, by: context.actor, reason: reason, at: clock().timeIntervalSince1970)
        switch action {
        case .signOutEverywhere:
            try await signIn.operatorActions.signOutEverywhere(of: found.user, recording: event)
            // The operator's own number: this browser was signed out too.
            if found.user.id == context.user.id { return .redirect(to: "/login") }
        case .unlock:
            // Nothing to lift: no event, and the person's activity says nothing happened.
            guard found.lockedFor != nil else {
                return try pages.consolePerson(
                    found, csrf: context.csrfToken, canAct: true, refused: (action, .notLocked))
            }
            try await signIn.operatorActions.liftLock(on: phone, recording: event)
        case .removePasskey:
            guard let passkeys, let id = form["passkey"].flatMap(Int64.init),
                found.passkeys.contains(where: { $0.id == id })
            else {
                return try pages.consolePerson(found, csrf: context.csrfToken, canAct: true, refused: (action, .gone))
            }
            try await passkeys.remove(id, of: found.user, recording: event)
        case .disconnectApp:
            guard let oidc, let client = form["client"],
                found.apps.contains(where: { $0.consent.clientID.utf8.elementsEqual(client.utf8) })
            else {
                return try pages.consolePerson(found, csrf: context.csrfToken, canAct: true, refused: (action, .gone))
            }
            var event = event
            event.app = client
            try await oidc.disconnect(user: found.user.id, client: client, recording: event)
        case .deleteAccount:
            let rules = accountRules
            switch try await accounts.delete(
                user: found.user.id, at: clock().timeIntervalSince1970, recording: event, decide: { rules.deletion($0) })
            {
            case .moneyHeld(let cents):
                return try pages.consolePerson(
                    found, csrf: context.csrfToken, canAct: true, refused: (action, .moneyHeld(cents)))
            case .delete, .noAccount:
                return .redirect(to: "/admin?done=delete-account")
            }
        default:
            throw OperatorGate.unknownPage
        }
        return .redirect(
            to: "/admin/people?"
                + URLEncodedForm([("phone", phone.nationalFormat), ("done", Self.path(of: action))]).encoded)
    }

    static func path(of action: OperatorAction) -> String {
        notices.first { $0.value == action }?.key ?? ""
    }
}

/// What a person's page shows an operator.
struct ConsolePerson: Sendable {
    let user: User
    /// Everything kept about them (the same as their own download).
    let account: AccountExport
    let status: PersonStatus
    let lockedFor: Int?
    let passkeys: [PasskeyRecord]
    /// Connected apps, each with its name where the app is still configured.
    let apps: [(consent: Consent, name: String?)]
    let activity: [StoredEvent]
    /// Accounts detached from this number (its earlier holders'), which may move to a new one.
    var detached: [DetachedAccountSummary] = []
}

/// Why the console refused what an operator asked.
enum ConsoleRefusal: Sendable {
    /// Not a number we text.
    case notANumber
    /// No account holds the number.
    case noAccount(PhoneNumber)
    /// The action's reason is missing or too long.
    case reason(ActionReason.Refusal)
    /// The passkey or app is no longer the person's (removed meanwhile, or never theirs).
    case gone
    /// The account holds money (in cents): it is not deleted, as the person's own deletion is not.
    case moneyHeld(Int64)
    /// "Lift the lock" for a number that is not locked.
    case notLocked
}

extension ConsoleRefusal: AnsweringError {
    var status: HTTPResponse.Status {
        switch self {
        case .notANumber, .reason: .unprocessableContent
        case .noAccount: .notFound
        case .gone, .moneyHeld, .notLocked: .conflict
        }
    }

    var message: String {
        switch self {
        case .notANumber: "Not a phone number we text."
        case .noAccount: "No account holds this number."
        case .reason(.missing): "The reason is missing."
        case .reason(.tooLong): "The reason is too long."
        case .gone: "That is no longer the person's."
        case .moneyHeld: "The account holds money."
        case .notLocked: "The number is not locked."
        }
    }

    /// The sentence's key in the catalogs.
    var key: String {
        switch self {
        case .notANumber: "console.error.notANumber"
        case .noAccount: "console.error.noAccount"
        case .reason(.missing): "console.error.reasonMissing"
        case .reason(.tooLong): "console.error.reasonTooLong"
        case .gone: "console.error.gone"
        case .moneyHeld: "console.error.moneyHeld"
        case .notLocked: "console.error.notLocked"
        }
    }
}
