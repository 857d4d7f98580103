/// Why HTTPLite itself refused a request, as a value: the app says it in people's words
/// (HTTPLite holds no application text; WebApp's `HTTPRefusal+Phrase.swift` maps each case).
public enum HTTPRefusal: Sendable, Equatable {
    case noPage
    case noFile
    case malformedPath
    case methodNotAllowed(method: String)
    case formType
    case formUnreadable
    case jsonType
    case jsonMissingField(String)
    case jsonNotObject
    case jsonWrongType(field: String)
    case jsonInvalid
    /// Something went wrong on our side (the last resort's 500).
    case `internal`
}
