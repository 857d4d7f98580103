/// A cookie to set, with safe defaults: `HttpOnly`, `SameSite=Lax`, `Path=/`.
public struct Cookie: Sendable, Equatable {
    /// `SameSite` attribute values.
    public enum SameSite: String, Sendable {
        case strict = "Strict"
        case lax = "Lax"
        case none = "None"
    }

    public var name: String
    public var value: String
    public var path: String = "/"
    /// Lifetime in seconds; `nil` makes a browser-session cookie, 0 deletes it.
    public var maxAge: Int?
    /// Hidden from page scripts.
    public var httpOnly = true
    /// Sent only over HTTPS.
    public var secure = false
    public var sameSite: SameSite? = .lax
    /// Sent to this domain and its subdomains too; `nil` (the default): only to the host that
    /// set it.
    public var domain: String?

    public init(
        name: String, value: String, path: String = "/", maxAge: Int? = nil, httpOnly: Bool = true,
        secure: Bool = false, sameSite: SameSite? = .lax, domain: String? = nil
    ) {
        precondition(Self.isToken(name), "cookie name must be an RFC 6265 token")
        precondition(Self.isValidValue(value), "cookie value must be RFC 6265 cookie-octets")
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
        self.domain = domain
    }

    /// A cookie that makes the browser drop the one with this name and path.
    public static func expired(name: String, path: String = "/", secure: Bool = false, domain: String? = nil) -> Cookie
    {
        Cookie(name: name, value: "", path: path, maxAge: 0, secure: secure, domain: domain)
    }

    /// The `Set-Cookie` header value.
    public var headerValue: String {
        var parts = ["\(name)=\(value)", "Path=\(path)"]
        if let domain { parts.append("Domain=\(domain)") }
        if let maxAge {
            parts.append("Max-Age=\(maxAge)")
            if maxAge == 0 { parts.append("Expires=Thu, 01 Jan 1970 00:00:00 GMT") }
        }
        if secure { parts.append("Secure") }
        if httpOnly { parts.append("HttpOnly") }
        if let sameSite { parts.append("SameSite=\(sameSite.rawValue)") }
        return parts.joined(separator: "; ")
    }

    /// RFC 6265 cookie-octets: printable ASCII but space, `"`, `,`, `;` and `\`.
    public static func isValidValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: ",")
                && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\\")
        }
    }

    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7f && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
            }
    }
}
