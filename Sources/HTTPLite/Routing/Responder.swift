/// Everything that turns a request into a response: a route handler, a router, a whole app.
///
/// The one protocol at the centre of HTTPLite: the server needs nothing else.
public protocol HTTPResponder<Context>: Sendable {
    associatedtype Context: RequestContext
    func respond(to request: Request, context: Context) async throws -> Response
}

/// A responder made from a closure.
public struct ClosureResponder<Context: RequestContext>: HTTPResponder {
    private let closure: @Sendable (Request, Context) async throws -> Response

    public init(_ closure: @escaping @Sendable (Request, Context) async throws -> Response) {
        self.closure = closure
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        try await closure(request, context)
    }
}
