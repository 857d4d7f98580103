/// Comments taken out of a style sheet or a script before it is served.
///
/// Our CSS and JavaScript are written to be read, and about a third of their bytes are
/// comments; gzip shrinks prose far less than code, so on a phone's first visit the comments
/// were about 1.8 KB of the 7 KB Login cost. Browsers get the files without them; the files
/// in `Public/` keep them.
///
/// Only what is certainly a comment goes, with no parser of either language:
/// - CSS: every `/* … */` outside a quoted string;
/// - JavaScript: every line that holds nothing but a `//` comment, and only in a file with no
///   template literal (a backtick outside such lines) and no line ending in `\` (a string
///   continued on the next line): the only places such a line could be text.
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

    /// CSS's `/* … */` comments, skipping quoted strings (and their escapes). An unclosed comment
    /// runs to the end, as it does for the browser.
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
                index += 2
                while index < bytes.count, !(bytes[index] == star && index + 1 < bytes.count && bytes[index + 1] == slash) {
                    index += 1
                }
                index += 2
            } else {
                if quotes.contains(byte) { quote = byte }
                out.append(byte)
                index += 1
            }
        }
        return out
    }

    /// JavaScript's lines that are only a `//` comment, when no template literal could hold one.
    static func withoutCommentLines(_ bytes: [UInt8]) -> [UInt8] {
        let lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
        let isComment = { (line: ArraySlice<UInt8>) -> Bool in
            let text = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            return text.starts(with: [slash, slash])
        }
        guard !lines.contains(where: { !isComment($0) && ($0.contains(backtick) || $0.last == backslash) })
        else { return bytes }
        return withoutBlankLines(Array(lines.filter { !isComment($0) }.joined(separator: [newline])))
    }

    /// Lines of nothing but spaces and tabs, taken out.
    static func withoutBlankLines(_ bytes: [UInt8]) -> [UInt8] {
        let lines = bytes.split(separator: newline, omittingEmptySubsequences: false)
        let kept = lines.enumerated().filter { offset, line in
            offset == lines.count - 1 || !line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
        }
        return Array(kept.map(\.element).joined(separator: [newline]))
    }
}
