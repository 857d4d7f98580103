import Encodings
import Foundation

/// A remembered device as stored: whose it is and until when it signs them in.
public struct DeviceRecord: Sendable, Equatable {
    public var id: Int64
    public var userID: Int64
    /// The person's phone number (E.164), read with the device.
    public var phone: String
    public var createdAt: Double
    /// Fixed at the sign-in that remembered the device; rotating its token keeps it.
    public var expiresAt: Double
    /// The session its latest sign-in made (replaced at the next one).
    public var session: Data?

    public init(
        id: Int64, userID: Int64, phone: String, createdAt: Double, expiresAt: Double, session: Data? = nil
    ) {
        self.session = session
        self.id = id
        self.userID = userID
        self.phone = phone
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// "Which sessions and remembered devices of `user` are live at `now`?"
public struct PlacesRead: Sendable, Equatable {
    public var user: Int64
    /// Seconds since 1970: only what expires after it.
    public var now: Double

    public init(user: Int64, now: Double) {
        self.user = user
        self.now = now
    }
}

/// Where a person is signed in: their live sessions and remembered devices, newest first.
public struct SignedInPlaces: Sendable, Equatable {
    public struct Session: Sendable, Equatable {
        /// The storage key (never shown: the page shows ``SignedInPlaces/publicID(of:)``).
        public var key: Data
        public var userAgent: String?
        /// An API token rather than a browser.
        public var api: Bool
        public var signedInAt: Double
        public var lastSeenAt: Double
        public var expiresAt: Double

        public init(
            key: Data, userAgent: String?, api: Bool, signedInAt: Double, lastSeenAt: Double, expiresAt: Double
        ) {
            self.key = key
            self.userAgent = userAgent
            self.api = api
            self.signedInAt = signedInAt
            self.lastSeenAt = lastSeenAt
            self.expiresAt = expiresAt
        }
    }

    public struct Device: Sendable, Equatable {
        public var id: Int64
        public var key: Data
        public var userAgent: String?
        public var rememberedAt: Double
        public var lastUsedAt: Double
        public var expiresAt: Double
        /// The session its latest sign-in made.
        public var session: Data?

        public init(
            id: Int64, key: Data, userAgent: String?, rememberedAt: Double, lastUsedAt: Double, expiresAt: Double,
            session: Data? = nil
        ) {
            self.session = session
            self.id = id
            self.key = key
            self.userAgent = userAgent
            self.rememberedAt = rememberedAt
            self.lastUsedAt = lastUsedAt
            self.expiresAt = expiresAt
        }
    }

    public var sessions: [Session]
    public var devices: [Device]

    public init(sessions: [Session], devices: [Device]) {
        self.sessions = sessions
        self.devices = devices
    }

    /// A session's id on the page and in the API: the first 16 bytes of its storage key (itself
    /// a SHA-256 of the token) in hex. It names the session without giving a way to use it.
    public static func publicID(of key: Data) -> String {
        key.prefix(16).hexString
    }
}
