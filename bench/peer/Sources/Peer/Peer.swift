import Foundation
import Hummingbird

/// The Hummingbird peer's entry point: `peer --port 0 --templates DIR --public DIR --data-dir DIR`.
///
/// Serves what `bench/run` measures on Phone Login, written as a Swift developer would write it
/// with Hummingbird 2: `GET /login` (our templates through swift-mustache, a random CSRF token in
/// a cookie), `GET /home` signed in (the session, the person and the accounts read from SQLite
/// through GRDB in one read transaction), and `Public/` from memory. It prints
/// `Listening on http://127.0.0.1:PORT` and the `session=TOKEN` of the person it seeds.
@main
struct Peer {
    static func main() async throws {
        let options = Options(CommandLine.arguments.dropFirst())
        let store = try PeerStore(path: options.dataDirectory + "/peer.sqlite")
        let session = try await store.seed()
        let pages = try await PeerPages(
            templates: options.templates, locales: options.locales,
            assets: try PublicAssets(directory: options.publicDirectory))

        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: try SecurityHeadersMiddleware(templates: options.templates))
        router.get("/public/:file") { _, context -> Response in
            pages.assets.file(named: context.parameters.get("file") ?? "") ?? Response(status: .notFound)
        }
        router.get("/login") { request, _ -> Response in
            let csrf = CSRFCookie(request)
            return csrf.attach(to: try pages.login(csrf: csrf.token))
        }
        router.get("/home") { request, _ -> Response in
            let csrf = CSRFCookie(request)
            guard let token = request.cookies["session"]?.value,
                let home = try await store.home(sessionKey: SessionKey.storageKey(of: token), now: Date())
            else {
                return Response(status: .seeOther, headers: [.location: "/login"])
            }
            return csrf.attach(to: try pages.home(csrf: csrf.token, home: home))
        }

        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: options.port)),
            onServerRunning: { channel in
                let lines = "Listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\nsession=\(session)\n"
                FileHandle.standardOutput.write(Data(lines.utf8))
            })
        try await app.runService()
    }
}

/// The command line: `--port`, `--templates`, `--public`, `--data-dir`.
struct Options {
    var port = 8081
    var templates = "Templates"
    var locales = "Locales"
    var publicDirectory = "Public"
    var dataDirectory = "."

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let name = iterator.next(), let value = iterator.next() {
            switch name {
            case "--port": port = Int(value) ?? port
            case "--templates": templates = value
            case "--locales": locales = value
            case "--public": publicDirectory = value
            case "--data-dir": dataDirectory = value
            default: print("unknown option \(name)")
            }
        }
    }
}
