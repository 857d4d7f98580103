import AuthCore
import Encodings
import Foundation

/// The wallet: accounts with balances in integer cents, and deposit, withdraw, transfer,
/// rename and delete, for the signed-in person only.
///
/// It checks what the person typed and hands a ``WalletChange`` to its ``WalletStore``, which
/// applies it in one transaction (a transfer moves both sides or neither); the schema refuses
/// negative balances, and each change may carry a one-time key so that a double tap, a refresh
/// or a replayed form applies it once.
public struct Wallet: Sendable {
    private let store: any WalletStore
    private let clock: @Sendable () -> Date

    public init(store: any WalletStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
    }

    // MARK: Reading

    /// The person's name (their formatted phone until they set one), accounts and total.
    public func overview(user: Int64, defaultName: String) async throws -> Overview {
        Overview(try await store.overview(user: user), defaultName: defaultName)
    }

    /// Home: what the session stands for and, when it is signed in, the person's overview
    /// (named after the phone until the person sets a name), in one round trip to the database.
    /// `nil` when the session is unknown or expired; its idle timer is refreshed as with
    /// ``AuthCore/SignInService/state(of:)``.
    public func home(session: SessionToken, signIn: SignInService) async throws -> (
        state: SessionState, overview: Overview?
    )? {
        let key = session.storageKey
        let found = try await store.sessionAndOverview(session: key)
        guard let state = try await signIn.state(of: key, found: found.session) else { return nil }
        guard case .signedIn(let user) = state, let overview = found.overview else { return (state, nil) }
        return (state, Overview(overview, defaultName: user.phone.nationalFormat))
    }

    /// One of the person's accounts; someone else's is ``WalletError/accountNotFound``.
    public func account(user: Int64, id: Int64) async throws -> Account {
        guard let account = try await store.account(user: user, id: id) else { throw WalletError.accountNotFound }
        return account
    }

    /// The account's operations, newest first.
    public func history(user: Int64, account id: Int64, limit: Int = 100) async throws -> [Operation] {
        guard let operations = try await store.history(user: user, account: id, limit: limit) else {
            throw WalletError.accountNotFound
        }
        return operations
    }

    // MARK: Changing

    /// Sets the name Home greets the person with (1 to 40 characters, trimmed).
    public func setDisplayName(user: Int64, to input: String, key: OperationKey? = nil) async throws -> Receipt {
        try await apply(.setDisplayName(try Self.cleanName(input, error: .invalidDisplayName)), user: user, key: key)
    }

    /// Opens an account named `name`, or `numbered` ("Account {number}", in the person's words)
    /// with the first number not in use.
    public func addAccount(user: Int64, name input: String?, numbered: String, key: OperationKey? = nil) async throws
        -> Receipt
    {
        let typed = try input.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
            .map { try Self.cleanName($0, error: .invalidAccountName) }
        return try await apply(.addAccount(name: typed, numbered: numbered), user: user, key: key)
    }

    public func rename(user: Int64, account id: Int64, to input: String, key: OperationKey? = nil) async throws
        -> Receipt
    {
        let name = try Self.cleanName(input, error: .invalidAccountName)
        return try await apply(.rename(account: id, name: name), user: user, key: key)
    }

    /// Deletes an empty account (its history goes with it).
    public func delete(user: Int64, account id: Int64, key: OperationKey? = nil) async throws -> Receipt {
        try await apply(.delete(account: id), user: user, key: key)
    }

    public func deposit(user: Int64, account id: Int64, amount: Money, key: OperationKey? = nil) async throws
        -> Receipt
    {
        try Self.check(amount)
        return try await apply(.deposit(account: id, amount: amount), user: user, key: key)
    }

    public func withdraw(user: Int64, account id: Int64, amount: Money, key: OperationKey? = nil) async throws
        -> Receipt
    {
        try Self.check(amount)
        return try await apply(.withdraw(account: id, amount: amount), user: user, key: key)
    }

    /// Moves `amount` between two of the person's accounts: both sides or neither.
    public func transfer(
        user: Int64, from source: Int64, to target: Int64, amount: Money, key: OperationKey? = nil
    )
        async throws -> Receipt
    {
        try Self.check(amount)
        guard source != target else { throw WalletError.sameAccount }
        return try await apply(.transfer(from: source, to: target, amount: amount), user: user, key: key)
    }

    /// Forgets one-time keys older than a day (a form is not replayed after that).
    @discardableResult
    public func purgeKeys(olderThan age: TimeInterval = 86_400) async throws -> Int {
        try await store.purgeKeys(before: clock().addingTimeInterval(-age).timeIntervalSince1970)
    }

    private func apply(_ change: WalletChange, user: Int64, key: OperationKey?) async throws -> Receipt {
        if let key, !Self.isValidKey(key.value) { throw WalletError.invalidOperationKey }
        let now = clock()
        return try await store.transaction(reading: WalletRules.reads(change, user: user, key: key?.value)) { found in
            try WalletRules.decide(change, key: key, now: now, given: found)
        }
    }

    /// A one-time key: 16 to 64 characters of base64url.
    public static func isValidKey(_ key: String) -> Bool {
        (16...64).contains(key.utf8.count)
            && key.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// A fresh one-time key for a form (128 random bits).
    public static func newKey() -> String {
        Data(secureRandomBytes(16)).base64URLEncodedString()
    }

    private static func check(_ amount: Money) throws {
        guard amount.cents > 0 else { throw WalletError.amount(.notPositive) }
        guard amount <= Money.maxAmount else { throw WalletError.amount(.tooLarge) }
    }

    /// A name as typed, trimmed and in Unicode's composed form (NFC: "é" typed as e + accent
    /// becomes one code point), then 1 to 40 characters. The schema counts code points
    /// (`CHECK length(name) BETWEEN 1 AND 40` on both databases), so a name whose characters are
    /// built of more than 40 (emoji sequences) is refused here too, never left to the database.
    private static func cleanName(_ input: String, error: WalletError) throws -> String {
        let name = input.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard (1...40).contains(name.count), name.unicodeScalars.count <= 40,
            !name.contains(where: {
                $0.isNewline
                    || $0.unicodeScalars.contains { $0.properties.generalCategory == .control || isBidiControl($0) }
            })
        else { throw error }
        return name
    }

    /// Marks that reorder text (U+202E shows "evil" as "live"): a name shown by Home, the
    /// history and, in gateway mode, other apps (`Remote-Name`) must read as it was typed.
    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
