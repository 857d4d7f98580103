/// How a person proved who they are, kept with their session (an OpenID Connect ID token's
/// `amr` says it to the apps).
public enum SignInMethod: String, Sendable, Equatable {
    /// A code by text or call.
    case code = "sms"
    case passkey
    /// A browser remembered at an earlier sign-in by code.
    case rememberedDevice = "device"
}
