import AuthCore

/// Who runs this server: the numbers `--admins` lists. Only a signed-in person whose number is
/// listed may see the console; to anyone else every `/admin` address is an unknown page.
public struct Operators: Sendable, Equatable {
    /// The listed numbers, E.164.
    public let phones: Set<String>

    public init(_ phones: [PhoneNumber]) {
        self.phones = Set(phones.map(\.e164))
    }

    /// No operators: the console is off and `/admin` is an unknown page to everyone.
    public var isEmpty: Bool { phones.isEmpty }

    /// Whether `phone` (E.164) is an operator's. Compared as bytes, not as Unicode text.
    public func contains(_ phone: String) -> Bool {
        phones.contains { $0.utf8.elementsEqual(phone.utf8) }
    }
}
