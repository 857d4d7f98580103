import EventsCore
import Foundation

/// A sign-in on a remembered device: the number typed on Login, the device's key from its cookie.
public struct RememberedSignIn: Sendable {
    public var phone: PhoneNumber
    /// The storage key of the device cookie's token.
    public var device: Data
    /// The key the device gets now (its token is rotated at each use).
    public var newDevice: Data
    /// The signed-in session to create.
    public var session: Data
    /// A session the browser had (pending or expired) that the new one replaces.
    public var replacedSession: Data?
    /// The browser's `User-Agent`, for "Your devices".
    public var userAgent: String?
    public var now: Date
    /// The client, for the sign-in's event.
    public var client: String?

    public init(
        phone: PhoneNumber, device: Data, newDevice: Data, session: Data, replacedSession: Data?,
        userAgent: String? = nil, now: Date, client: String? = nil
    ) {
        self.client = client
        self.userAgent = userAgent
        self.phone = phone
        self.device = device
        self.newDevice = newDevice
        self.session = session
        self.replacedSession = replacedSession
        self.now = now
    }
}

extension SignInRules {
    /// What ``rememberedSignIn(_:given:)`` needs: the device; the phone is locked (a code
    /// check for it waits).
    public func rememberedSignInReads(_ request: RememberedSignIn) -> SingleRead<DeviceRecord?> {
        SingleRead(locks: [.phone(request.phone.e164)]) { $0.device(request.device) }
    }

    /// Signs in without a code when this device is remembered for exactly this number and its
    /// 30 days have not passed: a new signed-in session, the device's token rotated, no text,
    /// nothing counted. The phone's failure lock does not apply: no code is tried, so someone
    /// else's wrong codes cannot keep the owner out. Anything else (another number, an expired
    /// or forgotten device): `false`, and the normal code flow follows.
    public func rememberedSignIn(_ request: RememberedSignIn, given found: DeviceRecord?) -> AuthDecision<Bool> {
        let now = request.now.timeIntervalSince1970
        guard let device = found, device.phone == request.phone.e164, device.expiresAt > now else {
            return AuthDecision(false)
        }
        // The session this device's last sign-in made ends: a device holds one session at a
        // time, however often it signs in.
        let ended = [request.replacedSession, device.session].compactMap { $0 }.reduce(into: [Data]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        return AuthDecision(
            true,
            changes: ended.map { .deleteSession(key: $0) }
                + newSession(
                    phone: device.phone, session: request.session, at: now, userAgent: request.userAgent,
                    method: .rememberedDevice,
                    // The last real proof is the sign-in by code that remembered this phone.
                    provedAt: device.createdAt, client: request.client)
                + [.rotateDevice(old: request.device, new: request.newDevice, at: now, session: request.session)])
    }

    /// The changes that remember a device at a sign-in with a code, valid
    /// ``SignInPolicy/deviceLifetime``, and note it.
    func rememberDevice(
        _ key: Data, phone: String, userAgent: String?, session: Data, now: Double, client: String? = nil
    ) -> [AuthChange] {
        [
            .rememberDevice(
                key: key, phone: phone, at: now, until: now + policy.deviceLifetime, userAgent: userAgent,
                session: session),
            Self.event(.deviceRemembered, at: now, phone: phone, userAgent: userAgent, client: client),
        ]
    }

    // MARK: Your devices

    /// What the "Your devices" decisions need: the user's live sessions and remembered devices.
    public func placesReads(user: Int64, now: Date) -> SingleRead<SignedInPlaces> {
        SingleRead { $0.signedInPlaces(PlacesRead(user: user, now: now.timeIntervalSince1970)) }
    }

    /// Signs out one of the user's sessions, named by its public id, and forgets the phone
    /// remembered by the same browser (else it would sign straight back in); `false` when the
    /// user has no such session (someone else's is the same as none).
    public func signOut(sessionID: String, of user: Int64, at now: Double, given found: SignedInPlaces)
        -> AuthDecision<Bool>
    {
        guard let session = found.sessions.first(where: { SignedInPlaces.publicID(of: $0.key) == sessionID })
        else { return AuthDecision(false) }
        let devices = found.devices.filter { $0.session == session.key }
        return AuthDecision(
            true,
            changes: Self.ending([session], of: user, at: now, why: .signedOutElsewhere)
                + Self.forgetting(devices, of: user, at: now))
    }

    /// "Sign out everywhere else": every session but `current` ends, and every remembered device
    /// but `currentDevice` is forgotten (else it would sign in again without a code).
    public func signOutEverywhereElse(
        current: Data, currentDevice: Data?, of user: Int64, at now: Double, given found: SignedInPlaces
    ) -> AuthDecision<Int> {
        let sessions = found.sessions.filter { $0.key != current }
        let devices = found.devices.filter { $0.key != currentDevice }
        return AuthDecision(
            sessions.count + devices.count,
            changes: Self.ending(sessions, of: user, at: now, why: .signedOutElsewhere)
                + Self.forgetting(devices, of: user, at: now))
    }

    /// Forgets one of the user's remembered devices; `false` when the user has no such device.
    public func forgetDevice(id: Int64, of user: Int64, at now: Double, given found: SignedInPlaces)
        -> AuthDecision<Bool>
    {
        guard let device = found.devices.first(where: { $0.id == id }) else { return AuthDecision(false) }
        return AuthDecision(true, changes: Self.forgetting([device], of: user, at: now))
    }
}
