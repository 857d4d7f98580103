import HTTPLite

/// The signed-in home page.
struct HomeController: Sendable {
    let pages: Pages

    func register(on router: Router<AppContext>) {
        router.get("/home", use: home)
    }

    @Sendable func home(_ request: Request, _ context: AppContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/login") }
        return try pages.home(csrf: context.csrfToken, user: user)
    }
}
