/// One step around request handling: it may change the request or context, answer by itself,
/// or call `next` and change the response. Sessions, CSRF, security headers and error pages
/// are middleware.
public protocol Middleware<Context>: Sendable {
    associatedtype Context: RequestContext
    func handle(
        _ request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response
}

/// A responder that runs `middleware` around `responder`: how a router chains its middleware,
/// and how an app puts middleware around several mounted routers at once.
public struct MiddlewareResponder<Context: RequestContext>: HTTPResponder {
    let middleware: any Middleware<Context>
    let responder: any HTTPResponder<Context>

    public init(middleware: any Middleware<Context>, responder: any HTTPResponder<Context>) {
        self.middleware = middleware
        self.responder = responder
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        try await middleware.handle(request, context: context) { request, context in
            try await responder.respond(to: request, context: context)
        }
    }
}
