#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files, which caps its connections: each is a file descriptor.
public enum FileDescriptorLimit {
    /// Descriptors kept for everything that is not a client connection: the listeners, the
    /// database and its journal, log and outbox files, the event loops' own.
    public static let reserved = 64

    /// Raises the soft limit to the hard one (a process may, without privileges) and returns the
    /// soft limit in force afterwards; `nil` if it cannot be read.
    @discardableResult
    public static func raiseToHard() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            #if canImport(Darwin)
                // macOS refuses more than OPEN_MAX for the soft limit.
                raised.rlim_cur = min(raised.rlim_cur, rlim_t(OPEN_MAX))
            #endif
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The most client connections that fit under `softLimit`.
    public static func connectionsFitting(_ softLimit: Int) -> Int {
        max(1, softLimit - reserved)
    }
}
