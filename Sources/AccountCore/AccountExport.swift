import Foundation

/// Everything kept about one person, for "Download your data" (`GET /account/data`) and the
/// API: their account, numbers over time, sessions, remembered phones, passkeys, connected apps,
/// the codes sent to them with their delivery, and their wallet. Never a secret (no code
/// digests, session or device keys, tokens, passkeys' public keys) and never another person's
/// row: a number's sends are listed only for the time the person held it.
///
/// Encoded with ``encoder``: snake_case keys, times in ISO 8601 (UTC), money in cents.
public struct AccountExport: Sendable, Equatable, Codable {
    public var exportedAt: Date
    public var account: Person
    public var phoneNumbers: [Number]
    public var sessions: [Session]
    public var rememberedPhones: [RememberedPhone]
    public var passkeys: [Passkey]
    public var connectedApps: [ConnectedApp]
    public var appSignIns: [AppSignIn]
    public var codesSent: [CodeSent]
    public var failedCodes: [FailedCode]
    public var wallet: [WalletAccount]

    public init(
        exportedAt: Date, account: Person, phoneNumbers: [Number], sessions: [Session],
        rememberedPhones: [RememberedPhone], passkeys: [Passkey], connectedApps: [ConnectedApp],
        appSignIns: [AppSignIn], codesSent: [CodeSent], failedCodes: [FailedCode], wallet: [WalletAccount]
    ) {
        self.exportedAt = exportedAt
        self.account = account
        self.phoneNumbers = phoneNumbers
        self.sessions = sessions
        self.rememberedPhones = rememberedPhones
        self.passkeys = passkeys
        self.connectedApps = connectedApps
        self.appSignIns = appSignIns
        self.codesSent = codesSent
        self.failedCodes = failedCodes
        self.wallet = wallet
    }

    public struct Person: Sendable, Equatable, Codable {
        public var id: Int64
        public var phoneNumber: String
        public var name: String?
        public var createdAt: Date
        public var lastSignInAt: Date
        public var passkeyOfferDismissedAt: Date?
        public init(
            id: Int64, phoneNumber: String, name: String?, createdAt: Date, lastSignInAt: Date,
            passkeyOfferDismissedAt: Date?
        ) {
            self.id = id
            self.phoneNumber = phoneNumber
            self.name = name
            self.createdAt = createdAt
            self.lastSignInAt = lastSignInAt
            self.passkeyOfferDismissedAt = passkeyOfferDismissedAt
        }
    }

    public struct Number: Sendable, Equatable, Codable {
        public var phoneNumber: String
        public var from: Date
        /// nil: held now. For a number the account was detached from, when the number last
        /// proved itself here.
        public var until: Date?
        public init(phoneNumber: String, from: Date, until: Date?) {
            self.phoneNumber = phoneNumber
            self.from = from
            self.until = until
        }
    }

    public struct Session: Sendable, Equatable, Codable {
        public var createdAt: Date
        public var lastSeenAt: Date
        public var expiresAt: Date
        /// `sms`, `tel` (a code read out on a call), `passkey` or `device` (a remembered phone).
        public var signedInWith: String
        public var userAgent: String?
        /// A JSON API token rather than a browser.
        public var api: Bool
        public init(
            createdAt: Date, lastSeenAt: Date, expiresAt: Date, signedInWith: String, userAgent: String?, api: Bool
        ) {
            self.createdAt = createdAt
            self.lastSeenAt = lastSeenAt
            self.expiresAt = expiresAt
            self.signedInWith = signedInWith
            self.userAgent = userAgent
            self.api = api
        }
    }

    public struct RememberedPhone: Sendable, Equatable, Codable {
        public var createdAt: Date
        public var lastUsedAt: Date
        public var expiresAt: Date
        public var userAgent: String?
        public init(createdAt: Date, lastUsedAt: Date, expiresAt: Date, userAgent: String?) {
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.expiresAt = expiresAt
            self.userAgent = userAgent
        }
    }

    public struct Passkey: Sendable, Equatable, Codable {
        public var name: String
        /// The authenticator's model (its AAGUID, in hex): not a secret, names the maker.
        public var aaguid: String
        public var createdAt: Date
        public var lastUsedAt: Date?
        /// When a counter that did not go up stopped it.
        public var flaggedAt: Date?
        public init(name: String, aaguid: String, createdAt: Date, lastUsedAt: Date?, flaggedAt: Date?) {
            self.name = name
            self.aaguid = aaguid
            self.createdAt = createdAt
            self.lastUsedAt = lastUsedAt
            self.flaggedAt = flaggedAt
        }
    }

    public struct ConnectedApp: Sendable, Equatable, Codable {
        public var clientID: String
        public var scope: String
        public var grantedAt: Date
        public init(clientID: String, scope: String, grantedAt: Date) {
            self.clientID = clientID
            self.scope = scope
            self.grantedAt = grantedAt
        }
    }

    public struct AppSignIn: Sendable, Equatable, Codable {
        public var clientID: String
        public var createdAt: Date
        public var revokedAt: Date?
        public init(clientID: String, createdAt: Date, revokedAt: Date?) {
            self.clientID = clientID
            self.createdAt = createdAt
            self.revokedAt = revokedAt
        }
    }

    public struct CodeSent: Sendable, Equatable, Codable {
        public var phoneNumber: String
        public var sentAt: Date
        /// `sms` or `voice`.
        public var channel: String
        public var status: String
        public var statusAt: Date?
        /// When the code signed someone in.
        public var verifiedAt: Date?
        public var errorCode: String?
        public init(
            phoneNumber: String, sentAt: Date, channel: String, status: String, statusAt: Date?, verifiedAt: Date?,
            errorCode: String?
        ) {
            self.phoneNumber = phoneNumber
            self.sentAt = sentAt
            self.channel = channel
            self.status = status
            self.statusAt = statusAt
            self.verifiedAt = verifiedAt
            self.errorCode = errorCode
        }
    }

    public struct FailedCode: Sendable, Equatable, Codable {
        public var phoneNumber: String
        public var at: Date
        public init(phoneNumber: String, at: Date) {
            self.phoneNumber = phoneNumber
            self.at = at
        }
    }

    public struct WalletAccount: Sendable, Equatable, Codable {
        public var name: String
        public var balanceCents: Int64
        public var createdAt: Date
        public var transactions: [Transaction]
        public init(name: String, balanceCents: Int64, createdAt: Date, transactions: [Transaction]) {
            self.name = name
            self.balanceCents = balanceCents
            self.createdAt = createdAt
            self.transactions = transactions
        }
    }

    public struct Transaction: Sendable, Equatable, Codable {
        /// `deposit`, `withdrawal`, `transfer_in` or `transfer_out`.
        public var kind: String
        public var amountCents: Int64
        public var balanceAfterCents: Int64
        public var at: Date
        /// The other account of a transfer (always the person's own).
        public var counterparty: String?
        public init(kind: String, amountCents: Int64, balanceAfterCents: Int64, at: Date, counterparty: String?) {
            self.kind = kind
            self.amountCents = amountCents
            self.balanceAfterCents = balanceAfterCents
            self.at = at
            self.counterparty = counterparty
        }
    }

    /// snake_case keys, ISO 8601 times, sorted keys, pretty-printed (a person opens the file).
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
