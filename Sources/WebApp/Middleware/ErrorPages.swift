import AuthCore
import HTMLRender
import HTTPLite

/// Turns errors into pages: an ``HTTPError`` keeps its status, message and headers (`Allow`,
/// `Retry-After`); a database that does not answer becomes a 503 "try again" page; anything
/// else is logged and becomes a 500 page that reveals nothing.
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
        } catch let error as StorageUnavailable {
            context.logger.error("Database unavailable", metadata: ["error": "\(error)"])
            var response = try pages.error(.serviceUnavailable, message: StorageUnavailable.message)
            response.headers.replaceOrAdd(name: "Retry-After", value: StorageUnavailable.retryAfter)
            return response
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))"])
            return try pages.error(.internalServerError, message: "Something went wrong on our side. Please try again.")
        }
    }
}
