import AuthCore
import Foundation

/// Who may pass to which protected app (`--gateway-rules FILE`): per host, the phone numbers
/// (`+14155550100`) or area codes (`+1530`) allowed. A host the file does not list admits
/// every signed-in person; without a file every signed-in person passes everywhere.
///
/// ```json
/// { "hosts": { "wiki.example.com": ["+14155550100", "+1530"], "admin.example.com": ["+14155550100"] } }
/// ```
public struct GatewayRules: Sendable, Equatable {
    /// Who is allowed, for each listed host (its name in lower case).
    private let allowed: [String: [Entry]]

    /// One line of a host's list.
    enum Entry: Sendable, Equatable {
        case number(String)
        case areaCode(String)
    }

    /// Why a rules file was refused, said so that its author can fix it.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Everyone signed in passes everywhere.
    public static let everyone = GatewayRules(allowed: [:])

    private init(allowed: [String: [Entry]]) {
        self.allowed = allowed
    }

    /// The rules in `json`, every host inside `domain`.
    public init(json: Data, domain: GatewayDomain) throws(Invalid) {
        struct File: Decodable {
            let hosts: [String: [String]]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
            // A misspelt setting would otherwise be ignored without a word.
            if let object = try JSONSerialization.jsonObject(with: json) as? [String: Any], object.count != 1 {
                let others = object.keys.filter { $0 != "hosts" }.sorted().joined(separator: ", ")
                throw Invalid(description: "The gateway rules have keys other than \"hosts\": \(others).")
            }
        } catch let error as Invalid {
            throw error
        } catch {
            throw Invalid(
                description:
                    "The gateway rules are not JSON of the form {\"hosts\": {\"wiki.example.com\": [\"+14155550100\", \"+1530\"]}}."
            )
        }
        var allowed: [String: [Entry]] = [:]
        for (hostText, list) in file.hosts {
            guard let host = HostName(authority: hostText), host.port == nil else {
                throw Invalid(description: "The gateway rules name \"\(hostText)\", which is not a host name.")
            }
            guard domain.contains(host) else {
                throw Invalid(description: "The gateway rules name \(host.name), outside the gateway domain \(domain).")
            }
            guard allowed[host.name] == nil else {
                throw Invalid(description: "The gateway rules name \(host.name) twice.")
            }
            allowed[host.name] = try list.map { entry throws(Invalid) in
                try Self.entry(entry, host: host.name)
            }
        }
        self.init(allowed: allowed)
    }

    /// Reads the rules file at `path`.
    public static func load(path: String, domain: GatewayDomain) throws(Invalid) -> GatewayRules {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Invalid(description: "Could not read the gateway rules file \(path).")
        }
        return try GatewayRules(json: data, domain: domain)
    }

    private static func entry(_ text: String, host: String) throws(Invalid) -> Entry {
        let digits = text.dropFirst(2)
        if text.hasPrefix("+1"), digits.allSatisfy(\.isASCIIDigit) {
            // Area codes start with 2 to 9 (NANP).
            if digits.count == 3, let first = digits.first, ("2"..."9").contains(first) {
                return .areaCode(String(digits))
            }
            if digits.count == 10, let phone = try? PhoneNumber(parsing: text), phone.e164 == text {
                return .number(text)
            }
        }
        throw Invalid(
            description:
                "The gateway rules for \(host) list \"\(text)\": give a number as +14155550100 or an area code as +1415."
        )
    }

    /// Whether the person with `phone` may pass to `host`.
    public func admits(_ phone: PhoneNumber, to host: HostName) -> Bool {
        guard let entries = allowed[host.name] else { return true }
        return entries.contains { entry in
            switch entry {
            case .number(let e164): phone.e164 == e164
            case .areaCode(let code): phone.areaCode == code
            }
        }
    }

    /// How many hosts the rules list (for the start-up log).
    public var hostCount: Int { allowed.count }
}
