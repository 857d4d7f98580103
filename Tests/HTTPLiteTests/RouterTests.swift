import HTTPTypes
import Logging
import NIOCore
import Testing

@testable import HTTPLite

@Suite("Router")
struct RouterTests {
    func context() -> BasicRequestContext {
        BasicRequestContext(source: RequestContextSource(logger: Logger(label: "test"), remoteAddress: nil))
    }

    func router() -> any HTTPResponder<BasicRequestContext> {
        let router = Router<BasicRequestContext>()
        router.get("/login") { _, _ in .text("login page") }
        router.post("/login") { _, _ in .text("login post") }
        router.get("/accounts/:id") { _, context in .text("account \(context.parameters["id"] ?? "?")") }
        router.get("/accounts/:id/history") { _, context in .text("history \(context.parameters["id"] ?? "?")") }
        return router.buildResponder()
    }

    func body(_ response: Response) -> String { String(buffer: response.body) }

    @Test("routes by method and path, with path parameters")
    func routes() async throws {
        let responder = router()
        #expect(
            body(try await responder.respond(to: Request(method: .get, uri: "/login"), context: context()))
                == "login page")
        #expect(
            body(try await responder.respond(to: Request(method: .post, uri: "/login?x=1"), context: context()))
                == "login post")
        #expect(
            body(try await responder.respond(to: Request(method: .get, uri: "/accounts/42"), context: context()))
                == "account 42")
        #expect(
            body(
                try await responder.respond(
                    to: Request(method: .get, uri: "/accounts/a%20b/history"), context: context())) == "history a b")
        // A trailing slash or doubled slashes name the same page.
        #expect(
            body(try await responder.respond(to: Request(method: .get, uri: "/login/"), context: context()))
                == "login page")
    }

    @Test("HEAD falls back to GET")
    func head() async throws {
        let response = try await router().respond(to: Request(method: .head, uri: "/login"), context: context())
        #expect(body(response) == "login page")
    }

    @Test("unknown path is 404, wrong method 405 with Allow")
    func errors() async throws {
        let responder = router()
        await #expect {
            try await responder.respond(to: Request(method: .get, uri: "/nope"), context: context())
        } throws: { error in
            (error as? StatusError)?.status == .notFound
        }
        await #expect {
            try await responder.respond(to: Request(method: .delete, uri: "/login"), context: context())
        } throws: { error in
            guard let error = error as? StatusError else { return false }
            return error.status == .methodNotAllowed && error.headers[.allow] == "GET, HEAD, POST"
        }
        await #expect {
            try await responder.respond(to: Request(method: .get, uri: "/%ff"), context: context())
        } throws: { error in
            (error as? StatusError)?.status == .badRequest
        }
    }

    static let xOrder = HTTPField.Name("X-Order")!

    /// Adds its name to `X-Order` on the way out.
    struct Tag: Middleware {
        let name: String
        func handle(
            _ request: Request, context: BasicRequestContext,
            next: (Request, BasicRequestContext) async throws -> Response
        ) async throws -> Response {
            var response = try await next(request, context)
            response.headers.append(HTTPField(name: RouterTests.xOrder, value: name))
            return response
        }
    }

    @Test("middleware runs in the order added, around the route")
    func middlewareOrder() async throws {
        let router = Router<BasicRequestContext>()
        router.add(middleware: Tag(name: "outer"))
        router.add(middleware: Tag(name: "inner"))
        router.get("/") { _, _ in .text("hi") }
        let response = try await router.buildResponder().respond(
            to: Request(method: .get, uri: "/"), context: context())
        #expect(response.headers[values: Self.xOrder] == ["inner", "outer"])
    }

    @Test("a group's paths are relative to its prefix, nested groups add theirs")
    func groupPaths() async throws {
        let router = Router<BasicRequestContext>()
        let api = router.group("api/v1")
        api.get("/me") { _, _ in .text("me") }
        api.group("/accounts").get(":id") { _, context in .text("account \(context.parameters["id"] ?? "?")") }
        router.group().get("/login") { _, _ in .text("login") }
        let responder = router.buildResponder()
        func answer(_ uri: String) async throws -> String {
            body(try await responder.respond(to: Request(method: .get, uri: uri), context: context()))
        }
        #expect(try await answer("/api/v1/me") == "me")
        #expect(try await answer("/api/v1/accounts/7") == "account 7")
        #expect(try await answer("/login") == "login")
        await #expect(throws: StatusError.self) { try await answer("/me") }
    }

    @Test("a group's middleware runs around its routes only, inside the router's")
    func groupMiddleware() async throws {
        let router = Router<BasicRequestContext>()
        router.add(middleware: Tag(name: "router")).add(middleware: ErrorMiddleware())
        router.get("/open") { _, _ in .text("open") }
        let group = router.group().add(middleware: Tag(name: "group"))
        group.get("/guarded") { _, _ in .text("guarded") }
        group.group("inner").add(middleware: Tag(name: "inner")).get("/") { _, _ in .text("inner") }
        let responder = router.buildResponder()
        func order(_ uri: String) async throws -> [String] {
            try await responder.respond(to: Request(method: .get, uri: uri), context: context()).headers[values: Self.xOrder]
        }
        #expect(try await order("/open") == ["router"])
        #expect(try await order("/guarded") == ["group", "router"])
        #expect(try await order("/inner") == ["inner", "group", "router"])
        // A 405 on a group's path is the router's: the group's middleware does not see it.
        let wrongMethod = try await responder.respond(
            to: Request(method: .post, uri: "/guarded"), context: context())
        #expect(wrongMethod.status == .methodNotAllowed)
        #expect(wrongMethod.headers[values: Self.xOrder] == ["router"])
    }

    /// A child context that exists only for a named visitor, as a signed-in context exists only
    /// with a user.
    struct NamedContext: ChildRequestContext {
        var logger: Logger
        var parameters: Parameters
        let matchedRoute: MatchedRoute
        let name: String

        init(context: BasicRequestContext) throws {
            guard let name = context.parameters["name"], name != "nobody" else {
                throw StatusError(.unauthorized, message: "Who are you?")
            }
            (logger, parameters, matchedRoute) = (context.logger, context.parameters, context.matchedRoute)
            self.name = name
        }
    }

    @Test("a group's child context reaches its handlers; when it cannot be made, its error is the answer")
    func childContext() async throws {
        let router = Router<BasicRequestContext>()
        router.add(middleware: ErrorMiddleware())
        router.group("hello").add(middleware: Tag(name: "group")).group(context: NamedContext.self)
            .get(":name") { _, context in .text("hello \(context.name)") }
        let responder = router.buildResponder()
        let named = try await responder.respond(to: Request(method: .get, uri: "/hello/ada"), context: context())
        #expect(body(named) == "hello ada")
        // The refusal is returned, not thrown: the group's middleware sees it on the way out.
        let refused = try await responder.respond(to: Request(method: .get, uri: "/hello/nobody"), context: context())
        #expect(refused.status == .unauthorized)
        #expect(body(refused) == "Who are you?\n")
        #expect(refused.headers[values: Self.xOrder] == ["group"])
    }

    @Test("path prefixes mount responders on whole segments; the longest prefix wins")
    func prefixes() async throws {
        func named(_ name: String) -> any HTTPResponder<BasicRequestContext> {
            ClosureResponder { _, _ in .text(name) }
        }
        let responder = PathPrefixResponder<BasicRequestContext>(
            mounts: [("/api", named("api")), ("/api/v2", named("v2"))], fallback: named("web"))
        func answer(_ uri: String) async throws -> String {
            body(try await responder.respond(to: Request(method: .get, uri: uri), context: context()))
        }
        #expect(try await answer("/api") == "api")
        #expect(try await answer("/api/v1/me?x=1") == "api")
        #expect(try await answer("/api/v2/me") == "v2")
        #expect(try await answer("/apidocs") == "web")
        #expect(try await answer("/api2/me") == "web")
        #expect(try await answer("/login") == "web")
    }

    @Test("JSON bodies: content type required, missing fields and bad JSON named")
    func json() throws {
        struct Body: Decodable { let phone_number: String }
        func request(_ body: String, type: String? = "application/json; charset=utf-8") -> Request {
            var headers = HTTPFields()
            if let type { headers[.contentType] = type }
            return Request(method: .post, uri: "/", headers: headers, body: ByteBuffer(string: body))
        }
        #expect(try request(#"{"phone_number": "5305550123"}"#).decodeJSON(Body.self).phone_number == "5305550123")
        func status(_ request: Request) -> (Int, String)? {
            do throws(StatusError) {
                _ = try request.decodeJSON(Body.self)
                return nil
            } catch {
                return (error.status.code, error.message)
            }
        }
        #expect(status(request("{}", type: "text/plain"))?.0 == 415)
        #expect(status(request("{}", type: nil))?.0 == 415)
        #expect(status(request("{}"))! == (400, "The field phone_number is missing."))
        #expect(status(request(#"{"phone_number": 5}"#))! == (400, "The field phone_number has the wrong type."))
        #expect(status(request("[1]"))! == (400, "The body must be a JSON object."))
        #expect(status(request("{"))! == (400, "The body is not valid JSON."))
        #expect(status(request(""))! == (400, "The body is not valid JSON."))
    }
}
