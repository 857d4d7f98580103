import Foundation
import HTTPLite
import OIDCCore

extension Pages {
    /// The console's apps: the clients file's (read-only), the console's own with their actions,
    /// and the form that adds one. `secret`: an app's new secret, shown this once; `typed`: the
    /// add form's fields as they came, after a refusal.
    func consoleApps(
        file: [OIDCClient], apps: [StoredApp], now: Double, csrf: String, canAct: Bool, done: String? = nil,
        secret: (app: String, secret: String)? = nil, refused: AppRefusal? = nil,
        typed: (id: String, name: String, redirects: String)? = nil
    ) throws -> Response {
        let fileApps: [[String: Any]] = file.map { client in
            ["id": client.id, "name": client.name, "redirects": client.redirectURIs.map { ["uri": $0] }]
        }
        let fileIDs = Set(file.map(\.id))
        let consoleApps: [[String: Any]] = apps.map { app in
            [
                "shadowed": fileIDs.contains(app.id),
                "id": app.id, "name": app.name, "redirects": app.redirectURIs.map { ["uri": $0] },
                "redirectsText": app.redirectURIs.joined(separator: "\n"), "off": app.disabledAt != nil,
                "retiring": app.isRetiring(at: now),
                "retiringUntil": app.retiringUntil.map { words("console.apps.retiring", ["when": Self.when($0, words)]) }
                    ?? "",
                "createdISO": Self.iso(app.createdAt), "createdAt": Self.when(app.createdAt, words),
                "labelEdit": words("console.apps.label.edit", ["app": app.name]),
                "labelRotate": words("console.apps.label.rotate", ["app": app.name]),
                "labelOnOff": words(app.disabledAt == nil ? "console.apps.label.turnOff" : "console.apps.label.turnOn", ["app": app.name]),
                "labelDelete": words("console.apps.label.delete", ["app": app.name]),
            ]
        }
        return try page(
            "admin-apps",
            [
                "csrf": csrf, "canAct": canAct, "fileApps": fileApps, "hasFileApps": !fileApps.isEmpty,
                "apps": consoleApps, "hasApps": !consoleApps.isEmpty,
                "notice": done.map { words("console.apps.done." + $0) } ?? "",
                "hasSecret": secret != nil, "secretApp": secret?.app ?? "", "secret": secret?.secret ?? "",
                "hasError": refused != nil, "error": refused.map { words($0.key) } ?? "",
                "typedID": String((typed?.id ?? "").prefix(64)), "typedName": String((typed?.name ?? "").prefix(64)),
                "typedRedirects": String((typed?.redirects ?? "").prefix(6000)),
                "pageAddress": "/admin/apps",
            ], answering: refused)
    }
}
