import AuthCore
import Foundation
import HTTPLite
import Wording

/// Limits said in the person's words on Login and Verify: a lock says until when and what else
/// can be done, and a wait in minutes carries the time it ends so the page can count it down.
extension Pages {
    /// The sentence for `error`; a locked number's says when the lock ends (in UTC: the server
    /// does not know the person's time zone) and what they can do meanwhile.
    func sentence(for error: any AnsweringError) -> String {
        guard case .phoneLocked(let seconds) = error as? SignInError else {
            return error.wording.map { words($0) } ?? error.message
        }
        return words(
            "signIn.phoneLockedUntil",
            ["until": Self.lockEnd(clock().addingTimeInterval(Double(seconds)), words.language)])
    }

    /// When a limit's wait ends, in seconds since 1970, for the sentences that say "try again
    /// in 8 minutes" (the page's script counts them down from it); `nil` for the others.
    func retryAt(_ error: (any AnsweringError)?) -> Int? {
        guard let error = error as? SignInError, let seconds = error.retryAfter else { return nil }
        switch error {
        // A lock says its end; "later" says no time; the resend wait is counted on the button.
        case .phoneLocked, .textsUnavailable, .callsUnavailable, .resendTooSoon, .callTooSoon: return nil
        default: return Int(clock().timeIntervalSince1970.rounded(.up)) + seconds
        }
    }

    /// "24 Nov, 08:15 UTC", rounded up to the minute so the lock has ended by then.
    private static func lockEnd(_ date: Date, _ language: Language) -> String {
        utcFormatter("d MMM, HH:mm 'UTC'", language).string(
            from: Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60))
    }
}
