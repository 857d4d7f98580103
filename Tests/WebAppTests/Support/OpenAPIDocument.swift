import Foundation
import NIOHTTP1

/// Our `Public/openapi.json`, and a check that a response is one the document describes: the
/// path, method and status are listed, the declared headers are present, and the JSON body
/// matches the schema. The schema check covers exactly the keywords the document uses and
/// reports any other keyword as a problem, so the document cannot outgrow the check silently.
struct OpenAPIDocument: Sendable {
    private let document: [String: any Sendable]
    private let basePath: String

    static let shared: OpenAPIDocument = {
        let url = packageRoot.appendingPathComponent("Public/openapi.json")
        let object = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: any Sendable]
        let servers = object["servers"] as! [[String: String]]
        return OpenAPIDocument(document: object, basePath: servers[0]["url"]!)
    }()

    /// What is wrong with this response per the document; empty when it conforms.
    func problems(method: HTTPMethod, path: String, status: UInt, headers: HTTPHeaders, body: String) -> [String] {
        let pathOnly = String(path.split(separator: "?", maxSplits: 1).first ?? "")
        guard pathOnly.hasPrefix(basePath) else { return ["\(path) is outside \(basePath)"] }
        let key = String(pathOnly.dropFirst(basePath.count))
        let paths = document["paths"] as! [String: any Sendable]
        // `/accounts/{id}` matches `/accounts/7`: segment by segment, `{…}` matching any one; a
        // path written out (`/verifications/check`) wins over a template that also matches it.
        let segments = key.split(separator: "/")
        let template = paths[key] != nil ? key : paths.keys.first { template in
            let parts = template.split(separator: "/")
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") || $0 == $1 }
        }
        guard let template, let operations = paths[template] as? [String: any Sendable] else {
            return ["\(key) is not in the document"]
        }
        guard let operation = operations[method.rawValue.lowercased()] as? [String: any Sendable] else {
            // An undocumented method must be refused with the error shape.
            return status == 405 ? errorShape(body) : ["\(method.rawValue) \(template) is not in the document"]
        }
        let responses = operation["responses"] as! [String: any Sendable]
        guard let response = responses[String(status)] as? [String: any Sendable] else {
            return ["\(method.rawValue) \(template) does not document status \(status)"]
        }
        var problems: [String] = []
        for name in (response["headers"] as? [String: any Sendable] ?? [:]).keys where headers[name].isEmpty {
            problems.append("\(status) must carry \(name)")
        }
        guard let content = response["content"] as? [String: any Sendable] else {
            return body.isEmpty ? problems : problems + ["\(status) must have no body"]
        }
        guard let media = content["application/json"] as? [String: any Sendable],
            headers.first(name: "Content-Type")?.hasPrefix("application/json") == true
        else { return problems + ["\(status) must be application/json"] }
        guard let value = try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) else {
            return problems + ["\(status) body is not JSON"]
        }
        return problems + validate(value, against: media["schema"]!, at: "body")
    }

    private func errorShape(_ body: String) -> [String] {
        let value = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) ?? NSNull()
        return validate(value, against: ["$ref": "#/components/schemas/Error"], at: "body")
    }

    private static let knownKeywords: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "enum", "pattern", "minimum", "items",
        "minLength", "maxLength", "description", "example",
    ]

    func validate(_ value: Any, against schema: Any, at location: String) -> [String] {
        var schema = schema as! [String: Any]
        if let reference = schema["$ref"] as? String {
            let name = reference.replacingOccurrences(of: "#/components/schemas/", with: "")
            let schemas = (document["components"] as! [String: Any])["schemas"] as! [String: Any]
            guard let target = schemas[name] else { return ["\(location): unknown $ref \(reference)"] }
            schema = target as! [String: Any]
        }
        var problems = schema.keys.filter { !Self.knownKeywords.contains($0) }.map {
            "\(location): schema keyword \($0) is not checked by this validator"
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return problems + ["\(location) is not an object"] }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(location).\(name) is missing")
            }
            for (name, item) in object {
                if let property = properties[name] {
                    problems += validate(item, against: property, at: "\(location).\(name)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(location).\(name) is not in the schema")
                }
            }
        case "string":
            guard let text = value as? String else { return problems + ["\(location) is not a string"] }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(location) \(text) does not match \(pattern)")
            }
            if let minimum = schema["minLength"] as? Int, text.count < minimum {
                problems.append("\(location) is too short")
            }
            if let maximum = schema["maxLength"] as? Int, text.count > maximum {
                problems.append("\(location) is too long")
            }
            if let allowed = schema["enum"] as? [String], !allowed.contains(text) {
                problems.append("\(location) \(text) is not one of \(allowed)")
            }
        case "integer":
            // JSON true/false come back as NSNumber too: tell them apart by their storage type.
            guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
                number.doubleValue == number.doubleValue.rounded()
            else { return problems + ["\(location) is not an integer"] }
            if let minimum = schema["minimum"] as? Int, number.intValue < minimum {
                problems.append("\(location) \(number) is below \(minimum)")
            }
        case "boolean":
            guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
                return problems + ["\(location) is not a boolean"]
            }
        case "array":
            guard let items = value as? [Any] else { return problems + ["\(location) is not an array"] }
            for (index, item) in items.enumerated() {
                problems += validate(item, against: schema["items"]!, at: "\(location)[\(index)]")
            }
        default:
            problems.append("\(location): schema type \(schema["type"] ?? "none") is not checked by this validator")
        }
        return problems
    }
}
