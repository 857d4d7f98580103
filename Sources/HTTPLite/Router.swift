import NIOHTTP1

/// Routes by method and path, with `:name` path parameters, and runs middleware around them.
///
/// Build it at start-up (add middleware and routes), then call ``buildResponder()`` once; the
/// result is immutable and shared by all connections. Unknown paths throw 404; a known path
/// with another method throws 405 with an `Allow` header; `HEAD` falls back to `GET`.
public final class Router<Context: RequestContext> {
    /// A route handler.
    public typealias Handler = @Sendable (Request, Context) async throws -> Response

    private var staticRoutes: [String: [String: Handler]] = [:]
    private var patternRoutes: [(pattern: [PathComponent], handlers: [String: Handler])] = []
    private var middlewares: [any Middleware<Context>] = []

    public init() {}

    /// Adds middleware; the first added runs outermost (sees the request first).
    public func add(middleware: any Middleware<Context>) {
        middlewares.append(middleware)
    }

    /// Adds a route, e.g. `on(.GET, "/accounts/:id")`.
    public func on(_ method: HTTPMethod, _ path: String, use handler: @escaping Handler) {
        let pattern = PathComponent.parse(path)
        if pattern.allSatisfy({ if case .constant = $0 { true } else { false } }) {
            staticRoutes[Self.key(pattern), default: [:]][method.rawValue] = handler
        } else if let index = patternRoutes.firstIndex(where: { $0.pattern == pattern }) {
            patternRoutes[index].handlers[method.rawValue] = handler
        } else {
            patternRoutes.append((pattern, [method.rawValue: handler]))
        }
    }

    /// Adds a `GET` route.
    public func get(_ path: String, use handler: @escaping Handler) { on(.GET, path, use: handler) }
    /// Adds a `POST` route.
    public func post(_ path: String, use handler: @escaping Handler) { on(.POST, path, use: handler) }

    /// The finished, immutable responder: middleware chain, then route dispatch.
    public func buildResponder() -> RouterResponder<Context> {
        var responder: any HTTPResponder<Context> = RouteTable<Context>(
            staticRoutes: staticRoutes, patternRoutes: patternRoutes)
        for middleware in middlewares.reversed() {
            responder = MiddlewareResponder(middleware: middleware, responder: responder)
        }
        return RouterResponder(root: responder)
    }

    fileprivate static func key(_ pattern: [PathComponent]) -> String {
        "/" + pattern.map { if case .constant(let text) = $0 { text } else { "" } }.joined(separator: "/")
    }
}

/// The responder a ``Router`` builds: its middleware chain around its routes.
public struct RouterResponder<Context: RequestContext>: HTTPResponder {
    let root: any HTTPResponder<Context>

    public func respond(to request: Request, context: Context) async throws -> Response {
        try await root.respond(to: request, context: context)
    }
}

/// One segment of a route pattern.
enum PathComponent: Equatable, Sendable {
    case constant(String)
    case parameter(String)

    /// The pattern as written: `/accounts/:id`.
    static func text(of pattern: [PathComponent]) -> String {
        "/"
            + pattern.map { component in
                switch component {
                case .constant(let text): text
                case .parameter(let name): ":" + name
                }
            }.joined(separator: "/")
    }

    static func parse(_ path: String) -> [PathComponent] {
        path.split(separator: "/").map { segment in
            segment.hasPrefix(":") ? .parameter(String(segment.dropFirst())) : .constant(String(segment))
        }
    }
}

struct RouteTable<Context: RequestContext>: HTTPResponder {
    typealias Handler = Router<Context>.Handler
    let staticRoutes: [String: [String: Handler]]
    let patternRoutes: [(pattern: [PathComponent], handlers: [String: Handler])]

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let segments = request.pathSegments else { throw HTTPError(.badRequest, message: "Malformed path.") }
        var context = context
        let handlers: [String: Handler]
        let route: String
        let path = "/" + segments.joined(separator: "/")
        if let found = staticRoutes[path] {
            handlers = found
            route = path
        } else if let (found, pattern, parameters) = match(segments) {
            handlers = found
            route = PathComponent.text(of: pattern)
            context.parameters = parameters
        } else {
            throw HTTPError(.notFound, message: "There is no page at this address.")
        }
        let method = request.method
        guard let handler = handlers[method.rawValue] ?? (method == .HEAD ? handlers["GET"] : nil) else {
            var allowed = Array(handlers.keys)
            if handlers["GET"] != nil, handlers["HEAD"] == nil { allowed.append("HEAD") }
            throw HTTPError(
                .methodNotAllowed, message: "This address does not accept \(method.rawValue) requests.",
                headers: ["Allow": allowed.sorted().joined(separator: ", ")])
        }
        context.matchedRoute.pattern = route
        return try await handler(request, context)
    }

    private func match(_ segments: [Substring]) -> ([String: Handler], [PathComponent], Parameters)? {
        outer: for route in patternRoutes where route.pattern.count == segments.count {
            var parameters = Parameters()
            for (component, segment) in zip(route.pattern, segments) {
                switch component {
                case .constant(let text): if text != segment { continue outer }
                case .parameter(let name): parameters.set(name, String(segment))
                }
            }
            return (route.handlers, route.pattern, parameters)
        }
        return nil
    }
}
