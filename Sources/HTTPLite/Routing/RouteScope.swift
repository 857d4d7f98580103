import HTTPTypes

/// Routes that share a path prefix, middleware that runs around them only, and maybe a context
/// of their own: "who may see these pages" said once, where the group is made, instead of in
/// every handler. Made as in Hummingbird (`router.group("api/v1")`, then relative paths), but
/// not its `RouterGroup`: a scope's middleware never sees the 404 and 405 of its prefix.
///
/// A group belongs to the ``Router`` it was made from; its routes, with its middleware around
/// each, go into the router's table when the router builds its responder. Requests no route
/// answers (404, 405) pass only the router's own middleware.
public final class RouteScope<Context: RequestContext>: RouterMethods {
    /// One route relative to the group that holds it, its handler already wrapped in that
    /// group's middleware.
    struct Route {
        var method: HTTPRequest.Method
        var path: String
        var handler: RouteHandler<Context>
    }

    private let prefix: String
    private var middlewares: [any Middleware<Context>] = []
    private var routes: [Route] = []
    /// The routes of the groups made from this one, as seen from here (paths under this group,
    /// handlers taking this group's context).
    private var subgroups: [() -> [Route]] = []

    init(prefix: String) {
        self.prefix = prefix
    }

    public func on(_ method: HTTPRequest.Method, _ path: String, use handler: @escaping RouteHandler<Context>) {
        routes.append(Route(method: method, path: path, handler: handler))
    }

    @discardableResult
    public func add(middleware: any Middleware<Context>) -> Self {
        middlewares.append(middleware)
        return self
    }

    public func group(_ prefix: String) -> RouteScope<Context> {
        subgroup(prefix) { $0 }
    }

    public func group<Child: ChildRequestContext>(_ prefix: String, context: Child.Type) -> RouteScope<Child>
    where Child.ParentContext == Context {
        subgroup(prefix) { try Child(context: $0) }
    }

    /// A group whose handlers see `makeContext` of this group's context; when that throws an
    /// ``AnsweringError``, its response is the route's answer.
    private func subgroup<Child>(_ prefix: String, makeContext: @escaping @Sendable (Context) throws -> Child)
        -> RouteScope<Child>
    {
        let child = RouteScope<Child>(prefix: prefix)
        subgroups.append {
            child.built().map { route in
                Route(method: route.method, path: route.path) { request, context in
                    let childContext: Child
                    do {
                        childContext = try makeContext(context)
                    } catch let error as any AnsweringError {
                        return error.response
                    }
                    return try await route.handler(request, childContext)
                }
            }
        }
        return child
    }

    /// Every route of this group and the groups made from it, paths under this group's prefix,
    /// with this group's middleware around each handler.
    func built() -> [Route] {
        (routes + subgroups.flatMap { $0() }).map { route in
            var handler = route.handler
            for middleware in middlewares.reversed() {
                handler = { [handler] request, context in
                    try await middleware.handle(request, context: context, next: handler)
                }
            }
            return Route(method: route.method, path: Self.join(prefix, route.path), handler: handler)
        }
    }

    /// `api/v1` and `/me` make `/api/v1/me`.
    static func join(_ prefix: String, _ path: String) -> String {
        "/" + (prefix.split(separator: "/") + path.split(separator: "/")).joined(separator: "/")
    }
}
