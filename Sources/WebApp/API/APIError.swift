import AuthCore
import HTTPLite
import NIOHTTP1

/// An API error: `{"error": {"code": …, "message": …}}` with an HTTP status.
///
/// The codes and messages of the original app's API are kept as they were
/// (`invalid_phone_number` "Your phone number is invalid", `incorrect_code` "Incorrect
/// verification code", `code_expired` "Your code expired"); the others are ours.
struct APIError: Error, Sendable, Equatable {
    var status: HTTPResponseStatus
    var code: String
    var message: String
    /// Seconds for `Retry-After` on `rate_limited`.
    var retryAfter: Int?

    static func badRequest(_ message: String, status: HTTPResponseStatus = .badRequest) -> APIError {
        APIError(status: status, code: "bad_request", message: message)
    }

    static let unauthorized = APIError(
        status: .unauthorized, code: "unauthorized",
        message: "Send a valid token as Authorization: Bearer TOKEN; sign in again if it expired.")

    /// The API's face of a sign-in rule.
    init(_ error: SignInError) {
        switch error {
        case .phone:
            self.init(
                status: .unprocessableEntity, code: "invalid_phone_number", message: "Your phone number is invalid")
        case .incorrectCode:
            self.init(status: .unprocessableEntity, code: "incorrect_code", message: "Incorrect verification code")
        case .codeExpired, .noPendingSignIn:
            self.init(status: .unprocessableEntity, code: "code_expired", message: "Your code expired")
        case .tooManyAttempts:
            self.init(status: .unprocessableEntity, code: "too_many_attempts", message: error.description)
        case .resendTooSoon, .tooManyCodesForPhone, .tooManyCodesFromClient, .phoneLocked:
            self.init(
                status: .tooManyRequests, code: "rate_limited", message: error.description, retryAfter: error.retryAfter
            )
        case .deliveryFailed:
            self.init(status: .serviceUnavailable, code: "sms_failed", message: error.description)
        }
    }

    init(status: HTTPResponseStatus, code: String, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// The API's face of an HTTP-level error (routing, body decoding).
    init(_ error: HTTPError) {
        let code =
            switch error.status {
            case .badRequest, .unsupportedMediaType: "bad_request"
            case .notFound: "not_found"
            case .methodNotAllowed: "method_not_allowed"
            case .forbidden: "forbidden"
            case .payloadTooLarge: "payload_too_large"
            default: error.status.code >= 500 ? "internal_error" : "bad_request"
            }
        self.init(status: error.status, code: code, message: error.message)
    }

    var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
            }
            let error: Detail
        }
        // Encoding two strings cannot fail; the fallback keeps the type honest.
        var response =
            (try? Response.json(Body(error: .init(code: code, message: message)), status: status))
            ?? Response.text(message, status: status)
        if let retryAfter { response.headers.replaceOrAdd(name: "Retry-After", value: String(retryAfter)) }
        if status == .unauthorized { response.headers.replaceOrAdd(name: "WWW-Authenticate", value: "Bearer") }
        return response
    }
}

/// Turns everything thrown under `/api` into the JSON error shape: ``APIError`` as it is,
/// ``HTTPError`` (404, 405 with `Allow`, 400, 415) mapped, anything else a logged 500 that
/// reveals nothing.
struct APIErrors: Middleware {
    func handle(
        _ request: Request, context: AppContext, next: (Request, AppContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as SignInError {
            return APIError(error).response
        } catch let error as HTTPError {
            var response = APIError(error).response
            for (name, value) in error.headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        } catch let error as StorageUnavailable {
            context.logger.error("Database unavailable", metadata: ["error": "\(error)"])
            var response = APIError(
                status: .serviceUnavailable, code: "unavailable", message: StorageUnavailable.message
            ).response
            response.headers.replaceOrAdd(name: "Retry-After", value: StorageUnavailable.retryAfter)
            return response
        } catch {
            context.logger.error("API request failed", metadata: ["error": "\(String(reflecting: error))"])
            return APIError(
                status: .internalServerError, code: "internal_error",
                message: "Something went wrong on our side. Please try again."
            ).response
        }
    }
}
