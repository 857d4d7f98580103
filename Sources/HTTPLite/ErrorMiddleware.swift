/// Answers every error thrown further in: an ``HTTPResponseError`` with its own ``HTTPResponseError/response``,
/// anything else with a logged 500 that reveals nothing.
///
/// Put it innermost of the middleware that must see every answer (security headers, request
/// metrics): a thrown error passes them by, a returned answer does not. Parts of an app that
/// render errors their own way (pages, JSON) do so further in; this is the last word for the
/// rest, such as the 404 and 405 of a router without error pages.
public struct ErrorMiddleware<Context: RequestContext>: Middleware {
    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            return error.response
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return .internalServerError
        }
    }
}

/// The answer both ``ErrorMiddleware`` and the server give an unexplained error.
extension Response {
    /// The answer to an error nobody explained: says only that it was our fault.
    public static var internalServerError: Response {
        .text("Something went wrong on our side.\n", status: .internalServerError)
    }
}
