import Encodings
import EventsCore
import Foundation
import Logging
import WebAuthnCore

/// The person's passkeys: listed, offered, renamed and removed.
extension PasskeyService {
    /// The person's passkeys (newest first), handle and answer to the offer.
    public func passkeys(of user: User) async throws -> UserPasskeys {
        try await store.read(rules.registrationOptionsReads(user: user.id))
    }

    /// Whether Home offers to create a passkey: the person has none and has not said "Not now".
    public func offers(to user: User) async throws -> Bool {
        let found = try await passkeys(of: user)
        return found.passkeys.isEmpty && !found.offerDismissed
    }

    /// "Not now" on Home's offer: it is not made again (the person can still add one on "Your
    /// devices").
    public func dismissOffer(for user: User) async throws {
        try await store.apply([.dismissPasskeyOffer(user: user.id, at: clock().timeIntervalSince1970)])
    }

    /// Renames one of the person's passkeys; the name is trimmed, 1 to 64 characters, with no
    /// control characters.
    public func rename(_ id: Int64, of user: User, to input: String) async throws {
        let name = input.trimmingCharacters(in: .whitespacesAndNewlines)
        // Counted in code points, as both databases count them.
        guard (1...64).contains(name.unicodeScalars.count),
            !name.unicodeScalars.contains(where: {
                [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
                    || $0.properties.generalCategory == .format && $0.value != 0x200D
            })
        else { throw PasskeyError.badName }
        try await ownPasskey(id, of: user)
        try await store.apply([.renamePasskey(id: id, user: user.id, name: name)])
    }

    /// Removes one of the person's passkeys; nothing else ends (sessions, devices stay).
    public func remove(
        _ id: Int64, of user: User, userAgent: String? = nil, client: String? = nil, recording operatorEvent: Event? = nil
    ) async throws {
        let passkey = try await ownPasskey(id, of: user)
        try await store.apply(
            [
                .removePasskey(id: id, user: user.id),
                .recordEvent(
                    Event(
                        .passkeyRemoved, at: clock().timeIntervalSince1970, user: user.id, detail: passkey.name,
                        userAgent: userAgent, client: client)),
            ] + (operatorEvent.map { [.recordEvent($0)] } ?? []))
        logger.info("Passkey removed", metadata: ["user": "\(user.id)"])
    }

    /// Refuses an id that is not one of the person's passkeys (the page then says so; the
    /// changes are scoped to the person anyway).
    @discardableResult
    private func ownPasskey(_ id: Int64, of user: User) async throws -> PasskeyRecord {
        guard let passkey = try await passkeys(of: user).passkeys.first(where: { $0.id == id }) else {
            throw PasskeyError.noSuchPasskey
        }
        return passkey
    }
}
