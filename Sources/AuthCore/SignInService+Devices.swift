import Foundation

/// The returning device of the original app: the number that signed in on this browser, typed
/// again, goes straight to Home.
extension SignInService {
    /// Signs in without a code when `device` (the device cookie's token) is remembered for the
    /// typed number; `nil` when it is not (another number, expired, forgotten, tampered), and
    /// the caller goes on with the code flow. Nothing is sent or counted either way.
    ///
    /// - Parameter replacing: the session the browser had (pending or stale), which ends.
    public func signInRemembered(phoneInput: String, device: SessionToken, replacing session: SessionToken?)
        async throws -> SignedIn?
    {
        let phone = try self.phone(phoneInput)
        let signedInToken = SessionToken.generate()
        let newDevice = SessionToken.generate()
        let request = RememberedSignIn(
            phone: phone, device: device.storageKey, newDevice: newDevice.storageKey,
            session: signedInToken.storageKey, replacedSession: session?.storageKey, now: clock())
        let rules = self.rules
        let applied = try await store.transaction(reading: rules.rememberedSignInReads(request)) { found in
            rules.rememberedSignIn(request, given: found)
        }
        guard applied.outcome else { return nil }
        guard let id = applied.signedInUserID else { throw StoredDataCorrupt("a sign-in that wrote no user") }
        metrics.verification("remembered_device")
        logger.info("Signed in on a remembered device", metadata: ["user": "\(id)", "phone": "\(phone.masked)"])
        return SignedIn(session: signedInToken, user: User(id: id, phone: phone), device: newDevice)
    }
}
