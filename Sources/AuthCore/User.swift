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
    /// The right code came for a number whose account may be someone else's now (the
    /// recycled-number guard): "Is this your account?" waits for an answer. `account` is the
    /// account the number is on.
    case claiming(PhoneNumber, account: Int64)
}
