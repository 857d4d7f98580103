import HTTPLite

extension ErrorMiddleware where Context == AppContext {
    /// Errors as pages: an error that knows its answer (routing's 404 and 405, someone else's
    /// account, a database that does not answer) keeps its status, sentence and headers
    /// (`Allow`, `Retry-After`) on the error page; anything else is logged and becomes a 500
    /// page that reveals nothing.
    static func pages(_ pages: Pages) -> Self {
        ErrorMiddleware(
            unexplained: StatusError.unexplained,
            render: { error, context in try pages.in(context.language).error(error) })
    }
}
