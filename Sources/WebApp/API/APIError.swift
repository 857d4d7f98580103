import AuthCore
import HTTPLite
import HTTPTypes
import WalletCore
import Wording

/// An API error: `{"error": {"code": …, "message": …}}` with an HTTP status.
///
/// The codes and messages of the original app's API are kept as they were
/// (`invalid_phone_number` "Your phone number is invalid", `incorrect_code` "Incorrect
/// verification code", `code_expired` "Your code expired"); the others are ours.
struct APIError: AnsweringError, Equatable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// `Retry-After` on `rate_limited` and `unavailable`, `Allow` on `method_not_allowed`.
    var headers: HTTPFields = [:]
    /// `account_dormant`: the proofs that get past it (`recovery_code`, `passkey`; none when the
    /// account has neither), and the `claim_id` that answers it (``ClaimAPIController``).
    var acceptedProofs: [String]? = nil
    var claimID: String? = nil
    /// `account_detached`: the `recovery_id` the passkey earned, to give the account a number
    /// (``RecoveryAPIController``).
    var recoveryID: String? = nil
    /// The `message` people's apps show, in the `Accept-Language` language; `nil` for an error
    /// with no words of ours (the status's name, in English, stays the message).
    var phrase: Phrase?

    static let unauthorized = APIError(
        status: .unauthorized, code: "unauthorized",
        message: "Send a valid token as Authorization: Bearer TOKEN; sign in again if it expired.",
        phrase: Phrase("api.bearer"))

    /// A sensitive call (the account's data, number or deletion) with a token older than
    /// `--confirm-within`: verify the account's own number again for a fresh token.
    static let reauthenticationRequired = APIError(
        status: .unauthorized, code: "reauthentication_required",
        message: "This call needs a token from a verification in the last few minutes: verify your number again.",
        phrase: Phrase("api.reauthenticate"))

    init(status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], phrase: Phrase? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.phrase = phrase
    }

    /// The API's face of any error that knows its answer: the error's status, headers and
    /// sentence with the API's `code`, and the original app's wording where it had its own.
    /// The one place an error becomes JSON.
    init(_ error: any AnsweringError) {
        if let error = error as? APIError {
            self = error
            return
        }
        self.init(
            status: error.status, code: Self.code(of: error), message: error.message, headers: error.headers,
            phrase: error.wording)
        switch error {
        case SignInError.phone: phrase = Phrase("api.invalidPhone")
        case SignInError.noPendingSignIn: phrase = Phrase("api.codeExpired")
        case WalletError.invalidOperationKey:
            // A header the client sent malformed, not a form to show again.
            status = .badRequest
            phrase = Phrase("api.idempotencyKey")
        case WalletError.operationKeyReused: phrase = Phrase("api.idempotencyReused")
        case let dormant as DormantAccount:
            acceptedProofs = (dormant.waysBack.recoveryCode ? ["recovery_code"] : []) + (dormant.waysBack.passkey ? ["passkey"] : [])
            claimID = dormant.claim.value
        default: break
        }
    }

    private static func code(of error: any AnsweringError) -> String {
        switch error {
        case let error as SignInError:
            switch error {
            case .phone, .phoneNotTexted: "invalid_phone_number"
            case .malformedCode: "invalid_code"
            case .incorrectCode: "incorrect_code"
            case .codeExpired, .noPendingSignIn: "code_expired"
            case .tooManyAttempts: "too_many_attempts"
            case .resendTooSoon, .callTooSoon, .tooManyCodesForPhone, .tooManyCodesFromClient, .tooManyCodesForExchange,
                .tooManyCallsForPhone,
                .tooManyFailuresFromClient, .phoneLocked, .tooManySignInsFromClient:
                "rate_limited"
            // One budget: a call past it is refused with the same code.
            case .textsUnavailable, .callsUnavailable, .deliveryPaused: "sms_unavailable"
            case .codeRequestedElsewhere: "verification_not_found"
            case .deliveryFailed: "sms_failed"
            case .callFailed: "call_failed"
            case .channelUnavailable: "channel_unavailable"
            }
        case let error as WalletError:
            switch error {
            case .accountNotFound: "not_found"
            case .amount: "invalid_amount"
            case .insufficientFunds: "insufficient_funds"
            case .balanceLimit: "balance_limit"
            case .sameAccount: "same_account"
            case .accountNotEmpty: "account_not_empty"
            case .invalidAccountName, .invalidDisplayName: "invalid_name"
            case .accountNameTaken: "name_taken"
            case .accountLimit: "account_limit"
            case .invalidOperationKey: "bad_request"
            case .operationKeyReused: "idempotency_key_reused"
            }
        case let error as PasskeyError:
            switch error {
            case .unavailable, .noSuchPasskey: "not_found"
            case .challengeExpired: "passkey_challenge_expired"
            case .unknownPasskey: "passkey_unknown"
            case .notYours, .malformed, .refused, .storedKeyUnreadable: "passkey_not_accepted"
            case .turnedOff, .counterWentBack: "passkey_turned_off"
            case .tooMany: "passkey_limit"
            case .alreadyRegistered: "passkey_exists"
            case .badName: "invalid_name"
            case .tooManyRequests: "rate_limited"
            case .operatorProofNeeded: "forbidden"
            }
        case let error as NumberChangeError:
            switch error {
            case .sameNumber: "same_number"
            case .numberHasAccount: "number_has_account"
            case .changedMeanwhile: "number_changed"
            }
        case is DormantAccount: "account_dormant"
        case is DetachedAccount: "account_detached"
        case let error as RecoveryError:
            switch error {
            case .malformedCode: "invalid_recovery_code"
            case .wrongNumberOrCode, .notThisAccountsCode: "incorrect_recovery_code"
            case .tooManyForNumber, .tooManyFromClient: "rate_limited"
            case .proofExpired: "recovery_expired"
            case .claimEnded: "claim_expired"
            }
        case is DeletionRefused: "money_held"
        case is StorageUnavailable: "unavailable"
        case is SchemaCheckFailed: "invalid_input"
        default:
            switch error.status {
            case .badRequest, .unsupportedMediaType: "bad_request"
            case .notFound: "not_found"
            case .methodNotAllowed: "method_not_allowed"
            case .forbidden: "forbidden"
            case .contentTooLarge: "payload_too_large"
            default: error.status.code >= 500 ? "internal_error" : "bad_request"
            }
        }
    }

    var response: Response { response(in: nil) }

    /// The JSON answer, its `message` in `words`' language (`code` is the same in every one).
    func response(in words: Catalog?) -> Response {
        let message = words.flatMap { words in phrase.map { words($0) } } ?? self.message
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
                let accepted_proofs: [String]?
                let claim_id: String?
                let recovery_id: String?
            }
            let error: Detail
        }
        // Encoding two strings cannot fail; the fallback keeps the type honest.
        var response =
            (try? Response.json(
                Body(
                    error: .init(code: code, message: message, accepted_proofs: acceptedProofs, claim_id: claimID,
                        recovery_id: recoveryID)), status: status))
            ?? Response.text(message, status: status)
        for field in headers { response.headers[field.name] = field.value }
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        // Said in the asker's language: no cache may hand it to someone else.
        if response.headers[values: .cacheControl].isEmpty {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}

extension ErrorMiddleware where Context == AppContext {
    /// Everything thrown under `/api` in the JSON error shape (``APIError/init(_:)``); an error
    /// that does not know its answer is a logged 500 (`internal_error`) that reveals nothing.
    static func api(_ wording: Wording) -> Self {
        ErrorMiddleware(
            unexplained: StatusError.unexplained,
            render: { error, context in APIError(error).response(in: wording[context.language]) })
    }
}
