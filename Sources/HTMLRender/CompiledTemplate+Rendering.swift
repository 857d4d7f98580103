/// A page's values, converted once from the `[String: Any]` pages are given, so that rendering
/// looks names up in dictionaries and switches over cases instead of casting `Any` per tag.
enum TemplateValue {
    /// Text (a `String`, or any other value as `String(describing:)`): rendered escaped, true
    /// in a section (even when empty, as swift-mustache has it).
    case text(String)
    case flag(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])

    init(_ value: Any) {
        switch value {
        case let text as String: self = .text(text)
        case let prepared as PreparedValues: self = prepared.value
        case let flag as Bool: self = .flag(flag)
        // The shapes pages make most, before the general ones: casting a `[String: String]` to
        // `[String: Any]` builds a new dictionary, one boxed value at a time.
        case let object as [String: String]: self = .object(object.mapValues { .text($0) })
        case let list as [[String: String]]: self = .list(list.map { .object($0.mapValues { .text($0) }) })
        case let object as [String: Any]: self = .object(object.mapValues(TemplateValue.init))
        case let list as [Any]: self = .list(list.map(TemplateValue.init))
        case let optional as any OptionalValue:
            // As swift-mustache has it: a `nil` is the text "nil" (pages never pass one).
            self = optional.wrapped.map(TemplateValue.init) ?? .text("nil")
        default: self = .text(String(describing: value))
        }
    }
}

/// Tells an `Optional` inside an `Any` from the value itself.
private protocol OptionalValue {
    var wrapped: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrapped: Any? { self.map { $0 as Any } }
}

extension CompiledTemplate {
    /// The templates a render can reach, by name (for `{{<parent}}`).
    typealias Library = [String: CompiledTemplate]

    /// Renders the template with `values`.
    func render(_ values: [String: Any], library: Library) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(8 * 1024)
        var stack = [TemplateValue.object(values.mapValues(TemplateValue.init))]
        Self.render(nodes, stack: &stack, blocks: [:], library: library, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private static func render(
        _ nodes: [Node], stack: inout [TemplateValue], blocks: [String: [Node]], library: Library,
        into output: inout [UInt8]
    ) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                output.append(contentsOf: bytes)
            case .value(let name):
                switch lookUp(name, in: stack) {
                case .text(let text)?: HTMLEscaping.append(text, to: &output)
                case .flag(let flag)?: output.append(contentsOf: (flag ? "true" : "false").utf8)
                default: break  // nothing, a list or an object: no text of their own
                }
            case .section(let name, let inner):
                switch lookUp(name, in: stack) {
                case nil, .flag(false)?:
                    break
                case .flag(true)?:
                    render(inner, stack: &stack, blocks: blocks, library: library, into: &output)
                case .list(let items)?:
                    for item in items {
                        stack.append(item)
                        render(inner, stack: &stack, blocks: blocks, library: library, into: &output)
                        stack.removeLast()
                    }
                case let value?:
                    stack.append(value)
                    render(inner, stack: &stack, blocks: blocks, library: library, into: &output)
                    stack.removeLast()
                }
            case .inverted(let name, let inner):
                switch lookUp(name, in: stack) {
                case nil, .flag(false)?:
                    render(inner, stack: &stack, blocks: blocks, library: library, into: &output)
                case .list(let items)? where items.isEmpty:
                    render(inner, stack: &stack, blocks: blocks, library: library, into: &output)
                default:
                    break
                }
            case .block(let name, let defaults):
                render(blocks[name] ?? defaults, stack: &stack, blocks: blocks, library: library, into: &output)
            case .parent(let name, let given):
                guard let parent = library[name] else { continue }  // checked when loading
                // The blocks of the template furthest down the inheritance win.
                let merged = given.merging(blocks) { _, fromChild in fromChild }
                render(parent.nodes, stack: &stack, blocks: merged, library: library, into: &output)
            }
        }
    }

    /// `name`'s value: its first part found in the nearest value on the stack that has it (or
    /// only in the current one, for `.name`), the rest inside that. `nil` when not there.
    private static func lookUp(_ name: Name, in stack: [TemplateValue]) -> TemplateValue? {
        guard let first = name.path.first else { return stack.last }
        var found: TemplateValue?
        if name.anchored {
            if case .object(let object)? = stack.last { found = object[first] }
        } else {
            for value in stack.reversed() {
                if case .object(let object) = value, let child = object[first] {
                    found = child
                    break
                }
            }
        }
        for part in name.path.dropFirst() {
            guard case .object(let object)? = found else { return nil }
            found = object[part]
        }
        return found
    }
}
