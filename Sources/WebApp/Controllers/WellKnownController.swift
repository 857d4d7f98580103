import HTTPLite

/// The files that let native apps use this site's passkeys: Apple's
/// `apple-app-site-association` (`webcredentials`) and Android's Digital Asset Links
/// (`get_login_creds`). Served only when `--apple-app-id` or `--android-app` names an app; a
/// file with no app configured is a 404.
struct WellKnownController: Sendable {
    let apps: NativeApps

    static let applePath = "/.well-known/apple-app-site-association"
    static let androidPath = "/.well-known/assetlinks.json"
    static let paths = [applePath, androidPath]

    func responder() -> any HTTPResponder<AppContext> {
        let router = Router<AppContext>()
        router.get(Self.applePath) { _, _ in try Self.file(apps.appleAssociation) }
        router.get(Self.androidPath) { _, _ in try Self.file(apps.assetLinks) }
        return router.buildResponder()
    }

    private static func file(_ json: [UInt8]?) throws -> Response {
        guard let json else { throw StatusError(.notFound, message: "Not Found") }
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
            body: .init(bytes: json))
    }
}
