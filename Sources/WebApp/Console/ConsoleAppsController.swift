import ConsoleCore
import EventsCore
import Foundation
import HTTPLite
import HTTPTypes
import OIDCCore
import Wording

/// The console's apps (`/admin/apps`): the OpenID Connect clients kept in the database, so a
/// change reaches every instance at once with no restart. Add one (its secret shown once, kept
/// as its SHA-256), change its name and redirect addresses, rotate its secret (the old one works
/// for a day more), turn it off or on, delete it; every action with a reason and an event
/// naming the operator. The clients file's (`--oidc-clients`) are listed, read-only.
struct ConsoleAppsController: Sendable {
    let provider: OIDCProvider
    let apps: any AppStore
    let pages: Pages
    let clock: @Sendable () -> Date

    func register(operators: RouteScope<OperatorContext>, acting: RouteScope<ActingOperatorContext>) {
        operators.get("/admin/apps", use: list)
        acting.post("/admin/apps", use: add)
        for action in ["edit", "rotate", "turn-off", "turn-on", "delete"] {
            acting.post("/admin/apps/:client/" + action) { request, context in
                try await change(action, request, context)
            }
            // Reload or Back on an action's answer asks its address with GET: the list, nothing done again.
            operators.get("/admin/apps/:client/" + action) { _, _ in .redirect(to: "/admin/apps") }
        }
    }

    @Sendable func list(_ request: Request, _ context: OperatorContext) async throws -> Response {
        let done = request.query["done"].flatMap { ["edit", "turn-off", "turn-on", "delete"].contains($0) ? $0 : nil }
        return try await page(context.csrfToken, context.language, canAct: context.canAct, done: done)
    }

    private func page(
        _ csrf: String, _ language: Language, canAct: Bool, done: String? = nil, secret: (app: String, secret: String)? = nil,
        refused: AppRefusal? = nil, typed: (id: String, name: String, redirects: String)? = nil
    ) async throws -> Response {
        try pages.in(language).consoleApps(
            file: provider.registry.clients.values.sorted { $0.id < $1.id }, apps: try await apps.apps(),
            now: clock().timeIntervalSince1970, csrf: csrf, canAct: canAct, done: done, secret: secret,
            refused: refused, typed: typed)
    }

    /// Adds an app; its secret is on the answer, once (a reload asks to send the form again,
    /// which finds the id taken and shows no secret).
    @Sendable func add(_ request: Request, _ context: ActingOperatorContext) async throws -> Response {
        let form = try request.formData()
        let typed = (id: form["client_id"] ?? "", name: form["name"] ?? "", redirects: form["redirect_uris"] ?? "")
        do {
            let reason = try reason(form)
            let fields = try StoredApp.checked(id: typed.id, name: typed.name, redirects: typed.redirects)
            let id = fields.id ?? ""
            guard provider.registry[id] == nil else { throw AppRefusal.fields(.idTaken) }
            let (secret, sha256) = StoredApp.newSecret()
            let now = clock().timeIntervalSince1970
            try await apps.add(
                StoredApp(id: id, name: fields.name, redirectURIs: fields.redirectURIs, secretSHA256: sha256, createdAt: now),
                recording: event(.addApp, app: id, context, reason))
            return try await page(context.csrfToken, context.language, canAct: true, secret: (id, secret))
        } catch let refusal as AppRefusal {
            return try await page(context.csrfToken, context.language, canAct: true, refused: refusal, typed: typed)
        } catch let refusal as StoredApp.Refusal {
            return try await page(
                context.csrfToken, context.language, canAct: true, refused: .fields(refusal), typed: typed)
        }
    }

    /// One app's change, by the last part of its address.
    func change(_ action: String, _ request: Request, _ context: ActingOperatorContext) async throws -> Response {
        let form = try request.formData()
        // An id the clients file has is the file's: a database row of that id (the shell can add
        // one without seeing the file) is never changed here, so its grants are never touched.
        guard let id = context.parameters["client"], ClientRegistry.isAcceptable(id: id), provider.registry[id] == nil,
            let app = try await apps.app(id: id)
        else {
            return try await page(context.csrfToken, context.language, canAct: true, refused: .gone)
        }
        let now = clock().timeIntervalSince1970
        do {
            let reason = try reason(form)
            switch action {
            case "edit":
                let fields = try StoredApp.checked(
                    id: nil, name: form["name"] ?? "", redirects: form["redirect_uris"] ?? "")
                _ = try await apps.update(
                    id: id, name: fields.name, redirectURIs: fields.redirectURIs,
                    recording: event(.editApp, app: id, context, reason))
            case "rotate":
                // A second rotation within the day would end the secret the app still uses (the
                // first press's answer may not have reached it: a double tap, a resubmitted form).
                if app.isRetiring(at: now) { throw AppRefusal.stillRetiring }
                let (secret, sha256) = StoredApp.newSecret()
                _ = try await apps.rotateSecret(
                    id: id, to: sha256, retiringUntil: now + StoredApp.retiringFor,
                    recording: event(.rotateAppSecret, app: id, context, reason))
                return try await page(context.csrfToken, context.language, canAct: true, secret: (app.id, secret))
            case "turn-off":
                guard app.disabledAt == nil else { break }  // already off: nothing done, nothing recorded
                _ = try await apps.setDisabled(id: id, at: now, recording: event(.turnAppOff, app: id, context, reason))
            case "turn-on":
                guard app.disabledAt != nil else { break }
                _ = try await apps.setDisabled(id: id, at: nil, recording: event(.turnAppOn, app: id, context, reason))
            default:
                _ = try await apps.delete(id: id, at: now, recording: event(.deleteApp, app: id, context, reason))
            }
        } catch let refusal as AppRefusal {
            return try await page(context.csrfToken, context.language, canAct: true, refused: refusal)
        } catch let refusal as StoredApp.Refusal {
            return try await page(context.csrfToken, context.language, canAct: true, refused: .fields(refusal))
        }
        return .redirect(to: "/admin/apps?done=" + action)
    }

    private func reason(_ form: URLEncodedForm) throws -> ActionReason {
        do {
            return try ActionReason(form["reason"])
        } catch {
            throw AppRefusal.reason(error)
        }
    }

    private func event(_ action: OperatorAction, app: String, _ context: ActingOperatorContext, _ reason: ActionReason)
        -> Event
    {
        var event = action.event(user: nil, by: context.actor, reason: reason, at: clock().timeIntervalSince1970)
        event.app = app
        return event
    }
}

/// Why the apps page refused what an operator asked.
enum AppRefusal: Error, Sendable {
    case reason(ActionReason.Refusal)
    case fields(StoredApp.Refusal)
    /// No such app (deleted meanwhile, or a file's client, which the console does not change).
    case gone
    /// A secret was made within the day: the one before it still works, and another rotation now
    /// would end it.
    case stillRetiring
}

extension AppRefusal: AnsweringError {
    var status: HTTPResponse.Status {
        switch self {
        case .gone: .notFound
        case .stillRetiring: .conflict
        case .fields(.idTaken): .conflict
        default: .unprocessableContent
        }
    }

    var message: String { "The app was not changed." }

    /// The sentence's key in the catalogs.
    var key: String {
        switch self {
        case .reason(.missing): "console.error.reasonMissing"
        case .reason(.tooLong): "console.error.reasonTooLong"
        case .fields(.id): "console.apps.error.id"
        case .fields(.name): "console.apps.error.name"
        case .fields(.redirects): "console.apps.error.redirects"
        case .fields(.idTaken): "console.apps.error.idTaken"
        case .gone: "console.apps.error.gone"
        case .stillRetiring: "console.apps.error.stillRetiring"
        }
    }
}
