import Foundation

/// The numbers behind sign-in. Defaults follow the product spec (and Twilio Verify, NIST
/// SP 800-63B §5.1.3 for out-of-band codes).
public struct SignInPolicy: Sendable {
    /// How long a code is valid: 10 minutes.
    public var codeLifetime: TimeInterval = 600
    /// How long before the same phone may be sent another code: 30 seconds.
    public var resendCooldown: TimeInterval = 30
    /// Wrong tries after which a code is dead: 5.
    public var maxAttemptsPerCode = 5
    /// How long a pending sign-in outlives its code: long enough to say "Your code expired" on
    /// the Verify page and offer a resend to the same number, but the code itself never works
    /// after ``codeLifetime``: 10 minutes.
    public var pendingSessionGrace: TimeInterval = 600
    /// A signed-in session ends after this long without a request: 7 days.
    public var sessionIdleTimeout: TimeInterval = 7 * 86_400
    /// A signed-in session ends this long after sign-in whatever happens: 30 days.
    public var sessionLifetime: TimeInterval = 30 * 86_400

    /// Most codes sent to one phone number per ``codesPerPhoneWindow``: 5 per 10 minutes
    /// (Twilio Verify's limit), against SMS pumping and harassing a stranger's phone.
    public var maxCodesPerPhone = 5
    public var codesPerPhoneWindow: TimeInterval = 600
    /// Most codes asked for from one client address per ``codesPerClientWindow``: 20 per hour.
    public var maxCodesPerClient = 20
    public var codesPerClientWindow: TimeInterval = 3600
    /// Failed codes per phone number per ``failuresPerPhoneWindow`` after which sign-in to that
    /// number is locked until the window passes: 20 per 24 hours.
    public var maxFailuresPerPhone = 20
    public var failuresPerPhoneWindow: TimeInterval = 86_400
    /// Most sign-ins one client address may start per ``signInsPerClientWindow`` (each makes a
    /// pending session row, even while the resend cooldown sends no text): 30 per hour, so
    /// nobody fills the sessions table anonymously.
    public var maxSignInsPerClient = 30
    public var signInsPerClientWindow: TimeInterval = 3600

    public init() {}
}
