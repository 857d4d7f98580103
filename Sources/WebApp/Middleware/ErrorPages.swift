import HTMLRender
import HTTPLite

/// Turns errors into pages: an error that knows its answer (``HTTPResponseError``: routing's
/// 404 and 405, someone else's account, a database that does not answer) keeps its status,
/// sentence and headers (`Allow`, `Retry-After`); anything else is logged and becomes a 500
/// page that reveals nothing.
struct ErrorPages: Middleware {
    let pages: Pages

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            if error.status.code >= 500 {
                context.logger.error(
                    "Request failed", metadata: ["status": "\(error.status.code)", "error": "\(error)"])
            }
            return try pages.error(error)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try pages.error(
                HTTPError(.internalServerError, message: "Something went wrong on our side. Please try again."))
        }
    }
}
