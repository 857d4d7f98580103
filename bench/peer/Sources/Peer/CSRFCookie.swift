import Hummingbird

/// The visitor's CSRF token: the `csrf` cookie's when it carries one, else a new random one
/// that the response sets (`HttpOnly`, `SameSite=Lax`, `Path=/`), as Phone Login does.
struct CSRFCookie {
    let token: String
    let isNew: Bool

    init(_ request: Request) {
        if let value = request.cookies["csrf"]?.value, value.utf8.count >= 43, value.utf8.count <= 64 {
            token = value
            isNew = false
        } else {
            token = RandomToken.make(bytes: 32)
            isNew = true
        }
    }

    func attach(to response: Response) -> Response {
        guard isNew else { return response }
        var response = response
        response.setCookie(Cookie(name: "csrf", value: token, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }
}
