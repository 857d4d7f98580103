import EventsCore
import Foundation

/// The returning device of the original app: the number that signed in on this browser, typed
/// again, goes straight to Home.
extension SignInService {
    /// Signs in without a code when `device` (the device cookie's token) is remembered for the
    /// typed number; `nil` when it is not (another number, expired, forgotten, tampered), and
    /// the caller goes on with the code flow. Nothing is sent or counted either way.
    ///
    /// - Parameter replacing: the session the browser had (pending or stale), which ends.
    public func signInRemembered(
        phoneInput: String, device: SessionToken, replacing session: SessionToken?, userAgent: String? = nil,
        client: String? = nil
    ) async throws -> SignedIn? {
        let phone = try self.phone(phoneInput)
        let signedInToken = SessionToken.generate()
        let newDevice = SessionToken.generate()
        let request = RememberedSignIn(
            phone: phone, device: device.storageKey, newDevice: newDevice.storageKey,
            session: signedInToken.storageKey, replacedSession: session?.storageKey, userAgent: userAgent,
            now: clock(), client: client)
        let rules = self.rules
        let applied = try await store.transaction(rules.rememberedSignInReads(request)) { found in
            rules.rememberedSignIn(request, given: found)
        }
        guard applied.outcome else { return nil }
        guard let id = applied.signedInUserID else { throw StoredDataCorrupt("a sign-in that wrote no user") }
        metrics.verification("remembered_device")
        logger.info("Signed in on a remembered device", metadata: ["user": "\(id)", "phone": "\(phone.masked)"])
        return SignedIn(session: signedInToken, user: User(id: id, phone: phone), device: newDevice)
    }

    // MARK: Your devices

    /// Where `user` is signed in now: live sessions and remembered devices, most recent first.
    public func places(of user: User) async throws -> SignedInPlaces {
        try await store.read(rules.placesReads(user: user.id, now: clock()))
    }

    /// Ends one of `user`'s sessions at once (on every instance); `false` if it has no such one.
    public func signOut(sessionID: String, of user: User) async throws -> Bool {
        try await onPlaces(of: user) { rules, found, now in
            rules.signOut(sessionID: sessionID, of: user.id, at: now, given: found)
        }
    }

    /// Ends every session of `user` but `current` and forgets every remembered device but
    /// `currentDevice`; returns how many ended.
    @discardableResult
    public func signOutEverywhereElse(of user: User, current: SessionToken, currentDevice: SessionToken?)
        async throws -> Int
    {
        try await onPlaces(of: user) { rules, found, now in
            rules.signOutEverywhereElse(
                current: current.storageKey, currentDevice: currentDevice?.storageKey, of: user.id, at: now,
                given: found)
        }
    }

    /// Forgets one of `user`'s remembered devices; `false` if it has no such one.
    public func forgetDevice(id: Int64, of user: User) async throws -> Bool {
        try await onPlaces(of: user) { rules, found, now in rules.forgetDevice(id: id, of: user.id, at: now, given: found) }
    }

    /// One "Your devices" decision: `user`'s places read and `decide` applied in one transaction.
    private func onPlaces<Outcome: Sendable>(
        of user: User, _ decide: @escaping @Sendable (SignInRules, SignedInPlaces, Double) -> AuthDecision<Outcome>
    ) async throws -> Outcome {
        let rules = self.rules
        let now = clock()
        return try await store.transaction(rules.placesReads(user: user.id, now: now)) { found in
            decide(rules, found, now.timeIntervalSince1970)
        }.outcome
    }

    /// Forgets the device this browser's cookie names ("Not you?" on Login): the next number
    /// typed there needs a code, whoever's it is.
    public func forgetDevice(_ device: SessionToken, userAgent: String? = nil, client: String? = nil) async throws {
        let key = device.storageKey
        let now = clock().timeIntervalSince1970
        _ = try await store.transaction(SingleRead { $0.device(key) }) { found in
            guard let found else { return AuthDecision(()) }
            return AuthDecision(
                (),
                changes: [
                    .forgetDevice(key: key),
                    SignInRules.event(.deviceForgotten, at: now, user: found.userID, userAgent: userAgent, client: client),
                ])
        }
    }
}
