/// Sends each request to the responder mounted at the longest matching path prefix, else to
/// a fallback: how one server hosts parts with different middleware, such as HTML pages with
/// cookies and CSRF beside a JSON API with bearer tokens.
///
/// A prefix matches whole segments: `/api` matches `/api` and `/api/v1/me`, not `/apidocs`.
public struct PathPrefixResponder<Context: RequestContext>: HTTPResponder {
    private let mounts: [(prefix: String, responder: any HTTPResponder<Context>)]
    private let fallback: any HTTPResponder<Context>

    /// - Parameters:
    ///   - mounts: path prefixes (starting with `/`, no trailing `/`) and their responders.
    ///   - fallback: answers every other path.
    public init(mounts: [(String, any HTTPResponder<Context>)], fallback: any HTTPResponder<Context>) {
        precondition(mounts.allSatisfy { $0.0.hasPrefix("/") && !$0.0.hasSuffix("/") }, "prefixes look like /api")
        self.mounts = mounts.sorted { $0.0.count > $1.0.count }.map { (prefix: $0.0, responder: $0.1) }
        self.fallback = fallback
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.path
        for mount in mounts where path.hasPrefix(mount.prefix) {
            let rest = path.dropFirst(mount.prefix.count)
            if rest.isEmpty || rest.hasPrefix("/") {
                return try await mount.responder.respond(to: request, context: context)
            }
        }
        return try await fallback.respond(to: request, context: context)
    }
}
