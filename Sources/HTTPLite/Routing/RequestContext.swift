import Foundation
import Logging
import NIOCore

/// What the server knows about a request before the app looks at it.
public struct RequestContextSource: Sendable {
    /// The server's logger. Lines written while the request is handled carry its id when the
    /// logging system is bootstrapped with ``RequestID/metadataProvider`` (the app's is).
    public var logger: Logger
    /// The TCP peer.
    public var remoteAddress: SocketAddress?
    /// Filled in by the router with the route that matched.
    public var matchedRoute = MatchedRoute()

    public init(logger: Logger, remoteAddress: SocketAddress?) {
        self.logger = logger
        self.remoteAddress = remoteAddress
    }
}

/// The route pattern (`/accounts/:id`) that answered a request, set by the router. A shared
/// reference, so middleware outside the router (metrics) can read it after the request, even
/// when the handler threw. `nil` when no route matched.
public final class MatchedRoute: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?

    public init() {}

    public var pattern: String? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

/// Per-request state, typed: the app declares its own context type (with its session, user,
/// CSRF token, …) and HTTPLite fills in the part it owns.
public protocol RequestContext: Sendable {
    /// The request's logger (its request id comes from ``RequestID/metadataProvider``).
    var logger: Logger { get set }
    /// Path parameters, filled in by the router.
    var parameters: Parameters { get set }
    /// The route that matched, filled in by the router.
    var matchedRoute: MatchedRoute { get }
}

/// The context the server makes for every request that arrives: the root an app's child
/// contexts are made from.
public protocol RootRequestContext: RequestContext {
    /// A fresh context for a request that just arrived.
    init(source: RequestContextSource)
}

/// A context made from its parent's for the routes of one group, once the group's middleware has
/// learnt something the parent only may have: a `SignedInContext` carries a `User` where its
/// parent has an optional one, so the group's handlers never check for a user again.
///
/// Modelled on Hummingbird's `ChildRequestContext`. When `init` throws an ``AnsweringError``,
/// the route answers with the error's ``AnsweringError/response`` (a redirect to the sign-in
/// page, a 401), returned through the group's middleware like any handler's answer.
public protocol ChildRequestContext<ParentContext>: RequestContext {
    associatedtype ParentContext: RequestContext
    /// The child of `context`; throws when the parent lacks what this context promises.
    init(context: ParentContext) throws
}

/// A plain context for apps and tests that need nothing more.
public struct BasicRequestContext: RootRequestContext {
    public var logger: Logger
    public var parameters = Parameters()
    public let matchedRoute: MatchedRoute

    public init(source: RequestContextSource) {
        self.logger = source.logger
        self.matchedRoute = source.matchedRoute
    }
}

/// Values of `:name` path segments matched by the router.
public struct Parameters: Sendable, Equatable {
    private var storage: [(String, String)] = []

    public init() {}

    /// The value of a path parameter.
    public subscript(name: String) -> String? {
        storage.first(where: { $0.0 == name })?.1
    }

    mutating func set(_ name: String, _ value: String) {
        storage.append((name, value))
    }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.storage.elementsEqual(rhs.storage, by: ==)
    }
}
