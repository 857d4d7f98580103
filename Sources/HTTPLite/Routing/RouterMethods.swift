import HTTPTypes

/// Adding routes and groups, the same on a ``Router`` and on each ``RouteScope``: paths are
/// relative to the router or group they are added to.
public protocol RouterMethods<Context>: AnyObject {
    associatedtype Context: RequestContext

    /// Adds a route, e.g. `on(.get, "/accounts/:id")`.
    func on(_ method: HTTPRequest.Method, _ path: String, use handler: @escaping RouteHandler<Context>)

    /// Adds middleware around the routes here; the first added runs outermost.
    @discardableResult
    func add(middleware: any Middleware<Context>) -> Self

    /// Routes under `prefix` (none: the same paths) with middleware of their own.
    func group(_ prefix: String) -> RouteScope<Context>

    /// Routes under `prefix` whose handlers see a `Child` context made from this one (e.g. one
    /// that carries the signed-in user); see ``ChildRequestContext``.
    func group<Child: ChildRequestContext>(_ prefix: String, context: Child.Type) -> RouteScope<Child>
    where Child.ParentContext == Context
}

/// A route handler.
public typealias RouteHandler<Context> = @Sendable (Request, Context) async throws -> Response

/// The methods spelled in terms of ``RouterMethods/on(_:_:use:)`` and the two `group`s.
extension RouterMethods {
    /// Adds a `GET` route (it answers `HEAD` too).
    public func get(_ path: String, use handler: @escaping RouteHandler<Context>) { on(.get, path, use: handler) }
    /// Adds a `POST` route.
    public func post(_ path: String, use handler: @escaping RouteHandler<Context>) { on(.post, path, use: handler) }
    /// Adds a `DELETE` route.
    public func delete(_ path: String, use handler: @escaping RouteHandler<Context>) {
        on(.delete, path, use: handler)
    }

    /// Routes at the same paths with middleware of their own.
    public func group() -> RouteScope<Context> { group("") }

    /// Routes at the same paths whose handlers see a `Child` context.
    public func group<Child: ChildRequestContext>(context: Child.Type) -> RouteScope<Child>
    where Child.ParentContext == Context {
        group("", context: context)
    }
}
