import HTMLRender
import HTTPLite

/// Turns errors into pages: an ``HTTPError`` keeps its status, message and headers (`Allow`,
/// `Retry-After`); anything else is logged and becomes a 500 page that reveals nothing.
struct ErrorPages: Middleware {
    let pages: Pages

    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if error.status.code >= 500 {
                context.logger.error("Request failed", metadata: ["status": "\(error.status.code)"])
            }
            var response = try pages.error(error.status, message: error.message)
            response.headers.add(contentsOf: error.headers)
            return response
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try pages.error(.internalServerError, message: "Something went wrong on our side. Please try again.")
        }
    }
}
