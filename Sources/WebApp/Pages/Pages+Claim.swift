import AuthCore
import Foundation
import HTTPLite

extension Pages {
    /// "Is this your account?": when the number last signed in here and why we ask; "It's mine"
    /// (a recovery code, or a passkey on Login) when the account has a way to prove it, and
    /// "This number is new to me".
    func claim(
        csrf: String, phone: PhoneNumber, lastUsed: Date?, waysBack: WaysBack, error: (any AnsweringError)? = nil
    ) throws -> Response {
        let seconds = lastUsed?.timeIntervalSince1970
        return try page(
            "claim",
            [
                // A passkey proves it only while passkeys are offered here.
                "csrf": csrf, "phone": phone.nationalFormat, "pageAddress": "/claim",
                "wayBack": waysBack.recoveryCode || (waysBack.passkey && passkeys), "codes": waysBack.recoveryCode,
                "passkeys": passkeys && waysBack.passkey, "hasError": error != nil, "error": sentence(error, triesLeft: nil),
                "knowsWhen": seconds != nil, "lastUsed": seconds.map { Self.when($0, words) } ?? "",
                "lastUsedISO": seconds.map { Self.iso($0) } ?? "",
            ], answering: error)
    }
}
