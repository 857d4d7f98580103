import EventsCore
import Foundation
import OIDCCore

/// What ``OIDCCore/AppStore`` reads and writes, once for both databases: the console's apps,
/// each change with the operator's event in the same transaction. Redirect addresses are kept
/// one a line (an address holds no line break: the console checks each).
public enum AppQueries {
    static let columns =
        "client_id, name, redirect_uris, secret_sha256, retiring_secret_sha256, retiring_until, disabled_at, created_at"
    static let one = SQL("SELECT \(columns) FROM oidc_apps WHERE client_id = $1")
    static let all = SQL("SELECT \(columns) FROM oidc_apps ORDER BY created_at, client_id")
    static let insert = SQL(
        """
        INSERT INTO oidc_apps (client_id, name, redirect_uris, secret_sha256, created_at)
        VALUES ($1, $2, $3, $4, $5) ON CONFLICT (client_id) DO NOTHING
        """)
    static let update = SQL("UPDATE oidc_apps SET name = $2, redirect_uris = $3 WHERE client_id = $1")
    static let rotate = SQL(
        """
        UPDATE oidc_apps SET retiring_secret_sha256 = secret_sha256, retiring_until = $3, secret_sha256 = $2
        WHERE client_id = $1
        """)
    static let disable = SQL("UPDATE oidc_apps SET disabled_at = $2 WHERE client_id = $1")
    static let delete = SQL("DELETE FROM oidc_apps WHERE client_id = $1")
    /// Off or gone: every grant of the app ends (its refresh tokens stop working).
    static let revokeGrants = SQL(
        "UPDATE oidc_grants SET revoked_at = coalesce(revoked_at, $2), sid = NULL WHERE client_id = $1")
    static let deleteConsents = SQL("DELETE FROM oidc_consents WHERE client_id = $1")

    static func app(_ row: any SQLRow) throws -> StoredApp {
        StoredApp(
            id: try row.get("client_id"), name: try row.get("name"),
            redirectURIs: (try row.get("redirect_uris") as String).split(separator: "\n").map(String.init),
            secretSHA256: try row.get("secret_sha256"), retiringSecretSHA256: try row.optional("retiring_secret_sha256"),
            retiringUntil: try row.optional("retiring_until"), disabledAt: try row.optional("disabled_at"),
            createdAt: try row.get("created_at"))
    }

    public static func app(id: String) -> Step<StoredApp?> {
        .rows(Statement(one, id)) { rows in .done(try rows.first.map(app)) }
    }

    public static func apps() -> Step<[StoredApp]> {
        .rows(Statement(all)) { rows in .done(try rows.map(app)) }
    }

    /// `statement`, then the event when it changed a row; whether it did.
    static func changing(_ statements: [Statement], recording event: Event) -> Step<Bool> {
        guard let first = statements.first else { return .done(false) }
        return .changes(first) { changed in
            guard changed == 1 else { return .done(false) }
            return Step<Int>.execute(Array(statements.dropFirst()) + [EventQueries.insert(event)]).map { _ in true }
        }
    }

    public static func add(_ app: StoredApp, recording event: Event) -> Step<Bool> {
        changing(
            [
                Statement(
                    insert, app.id, app.name, app.redirectURIs.joined(separator: "\n"), app.secretSHA256, app.createdAt)
            ], recording: event)
    }

    public static func update(id: String, name: String, redirectURIs: [String], recording event: Event) -> Step<Bool> {
        changing([Statement(update, id, name, redirectURIs.joined(separator: "\n"))], recording: event)
    }

    public static func rotateSecret(id: String, to sha256: Data, retiringUntil: Double, recording event: Event)
        -> Step<Bool>
    {
        changing([Statement(rotate, id, sha256, retiringUntil)], recording: event)
    }

    public static func setDisabled(id: String, at: Double?, recording event: Event) -> Step<Bool> {
        changing(
            [Statement(disable, id, at)] + (at.map { [Statement(revokeGrants, id, $0)] } ?? []), recording: event)
    }

    public static func delete(id: String, at: Double, recording event: Event) -> Step<Bool> {
        changing(
            [Statement(delete, id), Statement(revokeGrants, id, at), Statement(deleteConsents, id)], recording: event)
    }
}
