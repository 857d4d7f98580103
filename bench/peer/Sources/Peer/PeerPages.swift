import Foundation
import Hummingbird
import Mustache
import Wording

/// Login and Home rendered from Phone Login's own templates through swift-mustache, with the
/// values the real pages get (test mode on, as `bench/run` runs our server).
struct PeerPages: Sendable {
    let library: MustacheLibrary
    let assets: PublicAssets
    private let assetAddresses: [String: String]
    /// English, as the bench's requests ask for it.
    private let words: Catalog
    private let templateWords: TemplateWords

    init(templates: String, locales: String, assets: PublicAssets) async throws {
        library = try await MustacheLibrary(directory: templates)
        words = try Wording(directory: locales)[.english]
        templateWords = TemplateWords(words.templateValues)
        self.assets = assets
        let names = [
            "css": "app.css", "icon": "favicon.svg", "loginJS": "login.js", "verifyJS": "verify.js",
            "countdownJS": "countdown.js", "deliveryJS": "delivery.js",
        ]
        assetAddresses = names.mapValues(assets.address(of:))
    }

    func login(csrf: String) throws -> Response {
        try page(
            "login",
            [
                "csrf": csrf, "phone": "", "remembered": false, "error": "", "hasError": false, "notice": "",
                "retryAt": "", "countsDown": false, "offersSentCode": false, "sentCodeExpiry": "",
                "pageAddress": "/login",
            ])
    }

    func home(csrf: String, home: HomeData) throws -> Response {
        let phone = Self.nationalFormat(home.phone)
        return try page(
            "home",
            [
                "csrf": csrf, "phone": phone, "name": home.displayName ?? phone,
                "accounts": home.accounts.map {
                    ["id": String($0.id), "name": $0.name, "balance": Self.dollars($0.balanceCents)]
                },
                "total": Self.dollars(home.accounts.reduce(0) { $0 + $1.balanceCents }),
                "nextNumber": home.accounts.count + 1, "atAccountLimit": home.accounts.count >= 100,
                "accountLimit": 100, "addKey": RandomToken.make(bytes: 16), "nameKey": RandomToken.make(bytes: 16),
                "notice": "", "pageAddress": "/home",
                "accountLimitSentence": words("home.accountLimit", ["count": "100"]),
            ])
    }

    private func page(_ name: String, _ values: [String: Any]) throws -> Response {
        var values = values
        values["testMode"] = true
        values["asset"] = assetAddresses
        values["t"] = templateWords.values
        values["lang"] = "en"
        values["otherLang"] = "es"
        values["switchHref"] = (values["pageAddress"] as? String ?? "") + "?lang=es"
        guard let html = library.render(values, withTemplate: name) else { throw HTTPError(.internalServerError) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// `+14155550100` → `(415) 555-0100`.
    static func nationalFormat(_ e164: String) -> String {
        let digits = Array(e164.suffix(10))
        return "(\(String(digits[0..<3]))) \(String(digits[3..<6]))-\(String(digits[6...]))"
    }

    /// `123456` cents → `$1,234.56`.
    static func dollars(_ cents: Int64) -> String {
        let sign = cents < 0 ? "-" : ""
        var dollars = String(cents.magnitude / 100)
        var grouped = ""
        while dollars.count > 3 {
            grouped = "," + dollars.suffix(3) + grouped
            dollars.removeLast(3)
        }
        let remainder = cents.magnitude % 100
        return "\(sign)$\(dollars)\(grouped).\(remainder < 10 ? "0" : "")\(remainder)"
    }
}

/// The catalog in the templates' shape, made once (template values are `Any`, not `Sendable`;
/// these are never changed).
final class TemplateWords: @unchecked Sendable {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }
}
