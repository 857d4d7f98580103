/// A template read once into a tree of text, values, sections and blocks, rendered by walking the
/// tree with the page's values converted once into ``TemplateValue``.
///
/// Why not only swift-mustache: it looks every `{{name}}` up through several dynamic casts of
/// `Any` (is it a lambda, a parent, a custom renderable, a template …) and builds the page by
/// concatenating strings; that was 30–35% of the CPU of `GET /login` and `GET /home`
/// (docs/BENCHMARKS.md). swift-mustache stays the reference: ``PageRenderer`` loads every template
/// with it too, uses it for any template that needs more than this subset, and the tests render
/// every template with both, on random values, and require the same bytes.
///
/// The subset: variables (`{{name}}`, `{{a.b}}`, `{{.}}`), sections, inverted sections, comments,
/// pragmas, template inheritance (`{{<parent}}` with `{{$block}}`s), standalone lines as the
/// Mustache spec says. Partials, lambdas, transforms, set delimiters and indented standalone
/// blocks are not compiled (``Unsupported``).
struct CompiledTemplate: Sendable {
    /// One piece of a template.
    indirect enum Node: Sendable {
        case text([UInt8])
        case value(Name)
        case section(Name, [Node])
        case inverted(Name, [Node])
        /// `{{$name}}default{{/name}}`: the override a child template gives, else the default.
        case block(String, [Node])
        /// `{{<name}}…{{/name}}`: the template `name`, with the blocks given here.
        case parent(String, [String: [Node]])
    }

    /// A looked-up name: `.` (the current value), `a.b.c`, or `.a` (the current value's `a` only).
    struct Name: Sendable, Equatable {
        var path: [String]
        /// Looked up in the current value only, not up the stack.
        var anchored: Bool
    }

    /// Why a template is left to swift-mustache.
    struct Unsupported: Error, Equatable {
        let reason: String
    }

    let nodes: [Node]
    /// The templates this one inherits from (`{{<name}}`), to check that each is there.
    let parents: Set<String>

    init(_ text: String) throws(Unsupported) {
        let tokens = try Self.removingStandaloneLines(Self.tokens(of: Array(text.utf8)))
        var position = 0
        var parents = Set<String>()
        nodes = try Self.nodes(tokens, from: &position, closing: nil, parents: &parents)
        self.parents = parents
    }

    // MARK: - Reading

    enum Token: Equatable {
        case text([UInt8])
        /// `sigil` is `#`, `^`, `/`, `$`, `<`, `!`, `%` or 0 for a variable.
        case tag(sigil: UInt8, name: String)
    }

    private static let open: [UInt8] = Array("{{".utf8)
    private static let close: [UInt8] = Array("}}".utf8)

    /// Text (cut after each newline, so lines can be told apart) and tags, in order.
    static func tokens(of bytes: [UInt8]) throws(Unsupported) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        var text: [UInt8] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "{"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                if !text.isEmpty { tokens.append(.text(text)) }
                text = []
                guard let end = find(close, in: bytes, from: index + 2) else {
                    throw Unsupported(reason: "a tag is not closed")
                }
                var inside = bytes[(index + 2)..<end]
                index = end + 2
                var sigil: UInt8 = 0
                if let first = inside.first, "#^/$<!%>={&".utf8.contains(first) {
                    sigil = first
                    inside = inside.dropFirst()
                }
                switch sigil {
                case UInt8(ascii: ">"): throw Unsupported(reason: "partials")
                case UInt8(ascii: "="): throw Unsupported(reason: "set delimiters")
                case UInt8(ascii: "{"), UInt8(ascii: "&"): throw Unsupported(reason: "unescaped values")
                default: break
                }
                let name = String(decoding: inside, as: UTF8.self).trimmingSpaces
                if sigil != UInt8(ascii: "!"), sigil != UInt8(ascii: "%") {
                    guard !name.isEmpty, name.utf8.allSatisfy(isNameByte) else {
                        throw Unsupported(reason: "the name \(name)")
                    }
                }
                tokens.append(.tag(sigil: sigil, name: name))
            } else {
                text.append(bytes[index])
                if bytes[index] == UInt8(ascii: "\n") {
                    tokens.append(.text(text))
                    text = []
                }
                index += 1
            }
        }
        if !text.isEmpty { tokens.append(.text(text)) }
        return tokens
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index + 1] == needle[1] { return index }
            index += 1
        }
        return nil
    }

    /// Letters, digits, `.`, `-`, `_`, `?`: what swift-mustache takes in a name without transforms.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "?"):
            true
        default: false
        }
    }

    /// The Mustache spec's standalone lines: a line holding nothing but white space and one
    /// section, inverted section, closing, block, parent, comment or pragma tag is dropped,
    /// its white space and line ending with it; only the tag stays.
    static func removingStandaloneLines(_ tokens: [Token]) throws(Unsupported) -> [Token] {
        var result: [Token] = []
        var line: [Token] = []
        func endLine() throws(Unsupported) {
            let tags = line.filter { if case .tag = $0 { true } else { false } }
            let blank = line.allSatisfy {
                if case .text(let bytes) = $0 { return bytes.allSatisfy(isSpace) }
                return true
            }
            if blank, tags.count == 1, case .tag(let sigil, _) = tags[0], "#^/$<!%".utf8.contains(sigil) {
                if sigil == UInt8(ascii: "$") || sigil == UInt8(ascii: "<"),
                    case .text(let before) = line[0], before.contains(where: { $0 == 0x20 || $0 == 0x09 })
                {
                    throw Unsupported(reason: "an indented standalone block")
                }
                result.append(tags[0])
            } else {
                result.append(contentsOf: line)
            }
            line = []
        }
        for token in tokens {
            line.append(token)
            if case .text(let bytes) = token, bytes.last == UInt8(ascii: "\n") { try endLine() }
        }
        try endLine()
        return result
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0d || byte == 0x0a
    }

    /// The nodes from `position` up to the tag closing `closing` (or the end, when `nil`).
    private static func nodes(
        _ tokens: [Token], from position: inout Int, closing: String?, parents: inout Set<String>
    ) throws(Unsupported) -> [Node] {
        var nodes: [Node] = []
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            guard case .tag(let sigil, let name) = token else {
                if case .text(let bytes) = token {
                    // Consecutive text joins into one node.
                    if case .text(let previous)? = nodes.last {
                        nodes[nodes.count - 1] = .text(previous + bytes)
                    } else {
                        nodes.append(.text(bytes))
                    }
                }
                continue
            }
            switch sigil {
            case 0:
                nodes.append(.value(try Self.name(name)))
            case UInt8(ascii: "#"):
                let inner = try Self.nodes(tokens, from: &position, closing: name, parents: &parents)
                nodes.append(.section(try Self.name(name), inner))
            case UInt8(ascii: "^"):
                let inner = try Self.nodes(tokens, from: &position, closing: name, parents: &parents)
                nodes.append(.inverted(try Self.name(name), inner))
            case UInt8(ascii: "$"):
                nodes.append(.block(name, try Self.nodes(tokens, from: &position, closing: name, parents: &parents)))
            case UInt8(ascii: "<"):
                let inner = try Self.nodes(tokens, from: &position, closing: name, parents: &parents)
                var blocks: [String: [Node]] = [:]
                for case .block(let block, let content) in inner where blocks[block] == nil { blocks[block] = content }
                parents.insert(name)
                nodes.append(.parent(name, blocks))
            case UInt8(ascii: "/"):
                guard name == closing else { throw Unsupported(reason: "{{/\(name)}} closes nothing open") }
                return nodes
            default:
                break  // comments and pragmas
            }
        }
        if let closing { throw Unsupported(reason: "{{#\(closing)}} is not closed") }
        return nodes
    }

    private static func name(_ text: String) throws(Unsupported) -> Name {
        if text == "." { return Name(path: [], anchored: true) }
        let anchored = text.hasPrefix(".")
        let path = text.split(separator: ".").map(String.init)
        guard !path.isEmpty else { throw Unsupported(reason: "the name \(text)") }
        return Name(path: path, anchored: anchored)
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (no Foundation).
    fileprivate var trimmingSpaces: String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = utf8.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return "" }
        return String(decoding: utf8[first...last], as: UTF8.self)
    }
}
