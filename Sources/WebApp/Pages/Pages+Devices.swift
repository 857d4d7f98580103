import AuthCore
import Foundation
import HTTPLite
import OIDCCore
import Wording

extension Pages {
    /// "Your devices": the person's live sessions and remembered phones, the current ones marked.
    func devices(
        csrf: String, user: User, places: SignedInPlaces, passkeys: [PasskeyRecord]? = nil,
        apps: [(client: OIDCClient, grantedAt: Double)]? = nil, currentSession: Data,
        currentDevice: Data?, passkeyHere: Int64? = nil, notice: String? = nil, error: PasskeyError? = nil
    ) throws -> Response {
        // The passkey this browser made, if it is still one of the person's: no "Add a passkey".
        let here = (passkeys ?? []).first { $0.id == passkeyHere }
        let sessions: [[String: Any]] = places.sessions.map { session in
            let (description, signedIn) = (
                UserAgentDescription.describe(session, words), Self.when(session.signedInAt, words)
            )
            return [
                "signedInISO": Self.iso(session.signedInAt), "lastSeenISO": Self.iso(session.lastSeenAt),
                "id": SignedInPlaces.publicID(of: session.key),
                "description": UserAgentDescription.describe(session, words),
                "signedInAt": Self.when(session.signedInAt, words), "lastSeenAt": Self.when(session.lastSeenAt, words),
                "current": session.key == currentSession,
                "times": words(
                    "devices.sessionTimes", ["signedIn": signedIn, "lastSeen": Self.when(session.lastSeenAt, words)]),
                "label": words("devices.signOutLabel", ["device": description, "when": signedIn]),
            ]
        }
        let devices: [[String: Any]] = places.devices.map { device in
            let (description, remembered) = (
                UserAgentDescription.describe(device.userAgent, words), Self.when(device.rememberedAt, words)
            )
            return [
                "rememberedISO": Self.iso(device.rememberedAt), "expiresISO": Self.iso(device.expiresAt),
                "id": String(device.id), "description": UserAgentDescription.describe(device.userAgent, words),
                "rememberedAt": Self.when(device.rememberedAt, words), "expiresAt": Self.when(device.expiresAt, words),
                "current": device.key == currentDevice,
                "times": words(
                    "devices.deviceTimes", ["remembered": remembered, "until": Self.when(device.expiresAt, words)]),
                "label": words("devices.forgetLabel", ["device": description, "when": remembered]),
            ]
        }
        let keys: [[String: Any]] = (passkeys ?? []).map { passkey in
            [
                "id": String(passkey.id), "name": passkey.name, "flagged": passkey.flaggedAt != nil,
                "here": passkey.id == here?.id,
                "createdAt": Self.when(passkey.createdAt, words), "createdISO": Self.iso(passkey.createdAt),
                "used": passkey.lastUsedAt != nil, "usedAt": passkey.lastUsedAt.map { Self.when($0, words) } ?? "",
                "usedISO": passkey.lastUsedAt.map(Self.iso) ?? "",
                "times": passkey.lastUsedAt.map { used in
                    words(
                        "passkeys.times",
                        ["created": Self.when(passkey.createdAt, words), "used": Self.when(used, words)])
                } ?? words("passkeys.timesUnused", ["created": Self.when(passkey.createdAt, words)]),
                "renameLabel": words("passkeys.renameLabel", ["name": passkey.name]),
                "removeLabel": words("passkeys.removeLabel", ["name": passkey.name]),
            ]
        }
        return try page(
            "devices",
            [
                "csrf": csrf, "phone": user.phone.nationalFormat, "sessions": sessions, "devices": devices,
                "hasOthers": places.sessions.contains { $0.key != currentSession }, "notice": notice ?? "",
                "pageAddress": "/devices", "passkeysOn": passkeys != nil, "passkeys": keys,
                "hasPasskeys": !keys.isEmpty, "keptHere": here != nil,
                "keptHereSentence": here.map { words("passkeys.keptHere", ["name": $0.name]) } ?? "",
                "passkeyError": error.map { words($0.saying) } ?? "", "hasError": error != nil,
                "appsOn": apps != nil,
                "apps": (apps ?? []).map { app in
                    [
                        "id": app.client.id, "name": app.client.name,
                        "granted": words("devices.appGranted", ["when": Self.when(app.grantedAt, words)]),
                        "grantedAt": Self.when(app.grantedAt, words), "grantedISO": Self.iso(app.grantedAt),
                        "label": words("devices.disconnectLabel", ["app": app.client.name]),
                    ]
                },
            ], answering: error)
    }

    /// The instant for a `<time datetime>`, "2026-11-23T07:50:00Z": `local-time.js` says it in
    /// the reader's time zone.
    static func iso(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(isoStyle)
    }

    /// `Date.ISO8601Format()`'s style, made once (making it cost more than formatting with it).
    private static let isoStyle = Date.ISO8601FormatStyle()

    /// "23 Nov 2026, 07:50 UTC": the server does not know the reader's time zone, so it says which.
    static func when(_ seconds: Double, _ words: Catalog) -> String {
        // As the history says it (a format style's Spanish puts the month first, in 12 hours).
        let date = utcFormatter("d MMM yyyy, HH:mm", words.language).string(from: Date(timeIntervalSince1970: seconds))
        return words("time.utc", ["when": date])
    }
}

extension Pages {
    /// "Remove the passkey “My phone”?", with where else to delete it, Remove and Cancel.
    func passkeyRemoval(csrf: String, passkey: PasskeyRecord) throws -> Response {
        try page(
            "passkey-remove",
            [
                "csrf": csrf, "id": String(passkey.id), "pageAddress": "/devices/passkeys/\(passkey.id)/remove",
                "heading": words("passkeys.removeHeading", ["name": passkey.name]),
            ], answering: nil)
    }
}
