/// A person who has signed in at least once.
public struct User: Sendable, Equatable {
    /// Stable numeric id.
    public let id: Int64
    /// The phone the person signs in with.
    public let phone: PhoneNumber

    public init(id: Int64, phone: PhoneNumber) {
        self.id = id
        self.phone = phone
    }
}

/// What a session cookie stands for.
public enum SessionState: Sendable, Equatable {
    /// A code was sent to this phone and has not been confirmed yet.
    case pending(PhoneNumber)
    /// The person proved they hold this phone.
    case signedIn(User)
}
