/// How a person proved who they are, kept with their session (an OpenID Connect ID token's
/// `amr` says it to the apps).
public enum SignInMethod: String, Sendable, Equatable {
    /// A code by text.
    case code = "sms"
    case passkey
    /// A browser remembered at an earlier sign-in by code.
    case rememberedDevice = "device"
    /// A code read out on a call.
    case call = "tel"

    /// What the `method` column holds: a call's code is `sms` there, with `by_call` set (the
    /// column's CHECK predates calls as a proof of their own).
    public var storedMethod: String { self == .call ? Self.code.rawValue : rawValue }
    /// The `by_call` column.
    public var byCall: Bool { self == .call }

    /// The method the two columns hold; nil for a value the code does not know.
    public init?(stored method: String, byCall: Bool) {
        guard let known = SignInMethod(rawValue: method), known != .call else { return nil }
        self = known == .code && byCall ? .call : known
    }
}
