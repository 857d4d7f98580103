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
    public var now: Date

    public init(
        phone: PhoneNumber, device: Data, newDevice: Data, session: Data, replacedSession: Data?, now: Date
    ) {
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
    public func rememberedSignInReads(_ request: RememberedSignIn) -> AuthReads {
        AuthReads(device: request.device, locks: [.phone(request.phone.e164)])
    }

    /// Signs in without a code when this device is remembered for exactly this number and its
    /// 30 days have not passed: a new signed-in session, the device's token rotated, no text,
    /// nothing counted. The phone's failure lock does not apply: no code is tried, so someone
    /// else's wrong codes cannot keep the owner out. Anything else (another number, an expired
    /// or forgotten device): `false`, and the normal code flow follows.
    public func rememberedSignIn(_ request: RememberedSignIn, given found: AuthSnapshot) -> AuthDecision<Bool> {
        let now = request.now.timeIntervalSince1970
        guard let device = found.device, device.phone == request.phone.e164, device.expiresAt > now else {
            return AuthDecision(false)
        }
        let absolute = now + policy.sessionLifetime
        return AuthDecision(
            true,
            changes: (request.replacedSession.map { [.deleteSession(key: $0)] } ?? []) + [
                .signIn(
                    phone: device.phone, session: request.session, at: now,
                    expiresAt: min(absolute, now + policy.sessionIdleTimeout), absoluteExpiresAt: absolute),
                .rotateDevice(old: request.device, new: request.newDevice, at: now),
            ])
    }

    /// The change that remembers a device at a sign-in with a code, valid ``SignInPolicy/deviceLifetime``.
    func rememberDevice(_ key: Data, phone: String, now: Double) -> AuthChange {
        .rememberDevice(key: key, phone: phone, at: now, until: now + policy.deviceLifetime)
    }
}
