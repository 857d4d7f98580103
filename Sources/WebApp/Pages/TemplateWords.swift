import HTMLRender
import Wording

/// Each language's catalog in the templates' shape, converted for the renderer once at
/// start-up: a page render only looks it up.
struct TemplateWords: Sendable {
    private let values: [Language: PreparedValues]

    init(_ wording: Wording) {
        values = Dictionary(
            uniqueKeysWithValues: Language.allCases.map { ($0, PreparedValues(wording[$0].templateValues)) })
    }

    subscript(_ language: Language) -> PreparedValues { values[language] ?? PreparedValues([:]) }
}
