import AuthCore
import Foundation
import HTTPLite

extension Pages {
    /// "Your devices": the person's live sessions and remembered phones, the current ones marked.
    func devices(
        csrf: String, user: User, places: SignedInPlaces, currentSession: Data, currentDevice: Data?,
        notice: String? = nil
    ) throws -> Response {
        let sessions: [[String: Any]] = places.sessions.map { session in
            [
                "id": SignedInPlaces.publicID(of: session.key),
                "description": UserAgentDescription.describe(session),
                "signedInAt": Self.when(session.signedInAt), "lastSeenAt": Self.when(session.lastSeenAt),
                "current": session.key == currentSession,
            ]
        }
        let devices: [[String: Any]] = places.devices.map { device in
            [
                "id": String(device.id), "description": UserAgentDescription.describe(device.userAgent),
                "rememberedAt": Self.when(device.rememberedAt), "expiresAt": Self.when(device.expiresAt),
                "current": device.key == currentDevice,
            ]
        }
        return try page(
            "devices",
            [
                "csrf": csrf, "phone": user.phone.nationalFormat, "sessions": sessions, "devices": devices,
                "hasOthers": places.sessions.contains { $0.key != currentSession }, "notice": notice ?? "",
            ], answering: nil)
    }

    /// "23 Nov 2026, 07:50 UTC": the server does not know the reader's time zone, so it says which.
    static func when(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).formatted(
            Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: TimeZone(identifier: "UTC")!)
                .locale(Locale(identifier: "en_GB"))) + " UTC"
    }
}
