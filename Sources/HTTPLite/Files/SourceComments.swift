/// Comments taken out of a style sheet or a script before it is served.
///
/// Our CSS and JavaScript are written to be read, and about a third of their bytes are
/// comments; gzip shrinks prose far less than code, so on a phone's first visit the comments
/// were about 1.8 KB of the 7 KB Login cost. Browsers get the files without them; the files
/// in `Public/` keep them.
///
/// Only what is certainly a comment goes, and only where taking it out cannot join or split
/// anything, with no parser of either language:
/// - CSS: every `/* … */` outside a quoted string and an unquoted `url(…)`, unless it is glued
///   to text on both sides (`1px/**/2px` is two tokens; without the comment it would be one);
/// - JavaScript: every line that holds nothing but a `//` comment and no `*/` (inside a block
///   comment such a line may end it), and only in a file with no template literal (a backtick
///   outside such lines) and no line ending in `\` (a string continued on the next line): the
///   only places such a line could be text.
/// Lines left empty go too. Anything else is served as written.
enum SourceComments {
    /// `bytes` without their comments, for a `Content-Type` of CSS or JavaScript; other types
    /// as they are.
    static func stripped(_ bytes: [UInt8], contentType: String) -> [UInt8] {
        let type = contentType.prefix { $0 != ";" }.lowercased()
        switch type {
        case "text/css": return withoutBlankLines(withoutBlockComments(bytes))
        case "text/javascript", "application/javascript": return withoutCommentLines(bytes)
        default: return bytes
        }
    }

    private static let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\")
    private static let newline = UInt8(ascii: "\n"), backtick = UInt8(ascii: "`")
    private static let quotes: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: "'")]

    /// CSS's `/* … */` comments, skipping quoted strings (and their escapes) and unquoted
    /// `url(…)`. An unclosed comment runs to the end, as it does for the browser.
    static func withoutBlockComments(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var quote: UInt8? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                out.append(byte)
                if byte == backslash, index + 1 < bytes.count {
                    out.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == open || byte == newline { quote = nil }
                index += 1
            } else if byte == slash, index + 1 < bytes.count, bytes[index + 1] == star {
                var end = index + 2
                while end < bytes.count, !(bytes[end] == star && end + 1 < bytes.count && bytes[end + 1] == slash) {
                    end += 1
                }
                end = min(end + 2, bytes.count)
                let glued = out.last.map { !isSpace($0) } == true && end < bytes.count && !isSpace(bytes[end])
                if glued { out.append(contentsOf: bytes[index..<end]) }
                index = end
            } else if isURLOpening(bytes, at: index), index + 4 < bytes.count, !quotes.contains(bytes[index + 4]) {
                // An unquoted url( … ) runs to its `)`: a `/*` in it is part of the address.
                let close = bytes[(index + 4)...].firstIndex(of: UInt8(ascii: ")")) ?? bytes.count - 1
                out.append(contentsOf: bytes[index...close])
                index = close + 1
            } else {
                if quotes.contains(byte) { quote = byte }
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == newline || byte == UInt8(ascii: "\r")
    }

    /// `url(` in any case at `index`, not the end of a longer name (`my-url(`).
    private static func isURLOpening(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index + 4 <= bytes.count, bytes[index + 3] == UInt8(ascii: "(") else { return false }
        let name = bytes[index..<(index + 3)].map { $0 | 0x20 }
        guard name == Array("url".utf8) else { return false }
        guard index > 0 else { return true }
        let before = bytes[index - 1] | 0x20
        return !(before >= UInt8(ascii: "a") && before <= UInt8(ascii: "z")) && bytes[index - 1] != UInt8(ascii: "-")
            && !(bytes[index - 1] >= UInt8(ascii: "0") && bytes[index - 1] <= UInt8(ascii: "9"))
    }

    /// JavaScript's lines that are only a `//` comment, when no template literal could hold one.
    static func withoutCommentLines(_ bytes: [UInt8]) -> [UInt8] {
        let lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
        let isComment = { (line: ArraySlice<UInt8>) -> Bool in
            let text = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            return text.starts(with: [slash, slash]) && !text.indices.contains { index in
                text[index] == star && index + 1 < text.endIndex && text[index + 1] == slash
            }
        }
        let continues = { (line: ArraySlice<UInt8>) -> Bool in
            line.last { $0 != UInt8(ascii: "\r") } == backslash
        }
        guard !lines.contains(where: { !isComment($0) && ($0.contains(backtick) || continues($0)) })
        else { return bytes }
        return withoutBlankLines(Array(lines.filter { !isComment($0) }.joined(separator: [newline])))
    }

    /// Lines of nothing but blanks (spaces, tabs, a CR), taken out.
    static func withoutBlankLines(_ bytes: [UInt8]) -> [UInt8] {
        let lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
        let kept = lines.enumerated().filter { offset, line in
            offset == lines.count - 1 || !line.allSatisfy(isSpace)
        }
        return Array(kept.map(\.element).joined(separator: [newline]))
    }
}
