
/// Answers every error thrown further in: an ``AnsweringError`` is rendered with its own
/// status, sentence and headers, anything else becomes a logged 500 that reveals nothing (the
/// `unexplained` error, rendered the same way). Errors of status 500 and above are logged.
///
/// One mechanism, several renderings: an app's pages render errors as HTML, its JSON API as
/// JSON, and by default an error is its own plain ``AnsweringError/response``. Put the
/// default one innermost of the middleware that must see every answer (security headers,
/// request metrics): a thrown error passes them by, a returned answer does not.
public struct ErrorMiddleware<Context: RequestContext>: Middleware {
    private let unexplained: any AnsweringError & Sendable
    private let render: @Sendable (any AnsweringError, Context) throws -> Response

    /// - Parameters:
    ///   - unexplained: what an error that does not know its answer is answered as.
    ///   - render: the answer to an error that knows its answer; its own plain response unless
    ///     told otherwise.
    public init(
        unexplained: any AnsweringError & Sendable = StatusError.internalServerError,
        render: @escaping @Sendable (any AnsweringError, Context) throws -> Response = { error, _ in error.response }
    ) {
        self.unexplained = unexplained
        self.render = render
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any AnsweringError {
            if error.status.code >= 500 {
                context.logger.error(
                    "Request failed", metadata: ["status": "\(error.status.code)", "error": "\(error)"])
            }
            return try render(error, context)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try render(unexplained, context)
        }
    }
}

extension StatusError {
    /// An error nobody explained: says only that it was our fault.
    public static let internalServerError = StatusError(
        .internalServerError, .internal, message: "Something went wrong on our side.")
}

/// The answer the server gives an unexplained error that escaped every middleware.
extension Response {
    public static var internalServerError: Response { StatusError.internalServerError.response }
}
