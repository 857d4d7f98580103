import EventsCore
import Foundation

/// The events the sign-in rules record with their changes (EventsCore): each decision that
/// signs someone in or out, sends or refuses a code, remembers or forgets a phone, or changes
/// how an account is reached adds its event to the same list, so it is written in the same
/// transaction.
extension SignInRules {
    /// An event, as a change.
    static func event(
        _ type: EventType, at: Double, user: Int64? = nil, phone: String? = nil, detail: String? = nil,
        reference: String? = nil, userAgent: String? = nil, client: String? = nil
    ) -> AuthChange {
        .recordEvent(
            Event(
                type, at: at, user: user, phone: phone, detail: detail, reference: reference, userAgent: userAgent,
                client: client))
    }

    /// The changes that end every session and forget every remembered phone in `places` (the
    /// account's, `user`), each session's end noted with `why`.
    static func ending(_ places: SignedInPlaces, of user: Int64, at now: Double, why: SessionEnd) -> [AuthChange] {
        ending(places.sessions, of: user, at: now, why: why) + forgetting(places.devices, of: user, at: now)
    }

    /// `sessions` ended, each noted.
    static func ending(_ sessions: [SignedInPlaces.Session], of user: Int64, at now: Double, why: SessionEnd)
        -> [AuthChange]
    {
        sessions.flatMap { session in
            [
                .deleteSession(key: session.key),
                event(
                    .signedOut, at: now, user: user, detail: why.rawValue,
                    reference: SessionToken.sid(ofStorageKey: session.key), userAgent: session.userAgent),
            ]
        }
    }

    /// `devices` forgotten, each noted.
    static func forgetting(_ devices: [SignedInPlaces.Device], of user: Int64, at now: Double) -> [AuthChange] {
        devices.flatMap { device in
            [.forgetDevice(key: device.key), event(.deviceForgotten, at: now, user: user, userAgent: device.userAgent)]
        }
    }
}

extension SignInMethod {
    /// How the sign-in was proved, as its event says it.
    var way: SignInWay {
        switch self {
        case .code: .text
        case .call: .call
        case .passkey: .passkey
        case .rememberedDevice: .rememberedPhone
        }
    }
}
