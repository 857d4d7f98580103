import HTTPTypes

/// Routes by method and path, with `:name` path parameters, and runs middleware around them.
///
/// Build it at start-up (add middleware, routes and groups), then call ``buildResponder()``
/// once; the result is immutable and shared by all connections. Unknown paths throw 404; a
/// known path with another method throws 405 with an `Allow` header; `HEAD` falls back to `GET`.
/// The router's own middleware runs around every request, those errors included; a group's
/// (``RouteScope``) runs around the group's routes only.
public final class Router<Context: RequestContext>: RouterMethods {
    /// The routes added to the router itself, and its groups.
    private let routes = RouteScope<Context>(prefix: "")
    private var middlewares: [any Middleware<Context>] = []

    public init() {}

    /// Adds middleware around every request; the first added runs outermost (sees the request first).
    @discardableResult
    public func add(middleware: any Middleware<Context>) -> Self {
        middlewares.append(middleware)
        return self
    }

    public func on(_ method: HTTPRequest.Method, _ path: String, use handler: @escaping RouteHandler<Context>) {
        routes.on(method, path, use: handler)
    }

    public func group(_ prefix: String) -> RouteScope<Context> {
        routes.group(prefix)
    }

    public func group<Child: ChildRequestContext>(_ prefix: String, context: Child.Type) -> RouteScope<Child>
    where Child.ParentContext == Context {
        routes.group(prefix, context: context)
    }

    /// The finished, immutable responder: middleware chain, then route dispatch.
    public func buildResponder() -> any HTTPResponder<Context> {
        var staticRoutes: [String: [String: RouteHandler<Context>]] = [:]
        var patternRoutes: [(pattern: [PathComponent], handlers: [String: RouteHandler<Context>])] = []
        for route in routes.built() {
            let pattern = PathComponent.parse(route.path)
            let method = route.method.rawValue
            if pattern.allSatisfy({ if case .constant = $0 { true } else { false } }) {
                staticRoutes[PathComponent.text(of: pattern), default: [:]][method] = route.handler
            } else if let index = patternRoutes.firstIndex(where: { $0.pattern == pattern }) {
                patternRoutes[index].handlers[method] = route.handler
            } else {
                patternRoutes.append((pattern, [method: route.handler]))
            }
        }
        var responder: any HTTPResponder<Context> = RouteTable<Context>(
            staticRoutes: staticRoutes, patternRoutes: patternRoutes)
        for middleware in middlewares.reversed() {
            responder = MiddlewareResponder(middleware: middleware, responder: responder)
        }
        return responder
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

/// The routes of a built ``Router``: a dictionary for constant paths, a list for patterns.
struct RouteTable<Context: RequestContext>: HTTPResponder {
    typealias Handler = RouteHandler<Context>
    let staticRoutes: [String: [String: Handler]]
    let patternRoutes: [(pattern: [PathComponent], handlers: [String: Handler])]

    func respond(to request: Request, context: Context) async throws -> Response {
        guard let segments = request.pathSegments else {
            throw StatusError(.badRequest, .malformedPath, message: "Malformed path.")
        }
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
            throw StatusError(.notFound, .noPage, message: "There is no page at this address.")
        }
        let method = request.method
        guard let handler = handlers[method.rawValue] ?? (method == .head ? handlers["GET"] : nil) else {
            var allowed = Array(handlers.keys)
            if handlers["GET"] != nil, handlers["HEAD"] == nil { allowed.append("HEAD") }
            throw StatusError(
                .methodNotAllowed, .methodNotAllowed(method: method.rawValue),
                message: "This address does not accept \(method.rawValue) requests.",
                headers: [.allow: allowed.sorted().joined(separator: ", ")])
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
