import HTTPLite
import Wording

extension HTTPRefusal {
    /// What people are told when HTTPLite refuses a request, in the catalogs' words.
    var phrase: Phrase {
        switch self {
        case .noPage: Phrase("http.noPage")
        case .noFile: Phrase("http.noFile")
        case .malformedPath: Phrase("http.malformedPath")
        case .methodNotAllowed(let method): Phrase("http.methodNotAllowed", ["method": .text(method)])
        case .formType: Phrase("http.formType")
        case .formUnreadable: Phrase("http.formUnreadable")
        case .jsonType: Phrase("http.jsonType")
        case .jsonMissingField(let field): Phrase("http.jsonMissingField", ["field": .text(field)])
        case .jsonNotObject: Phrase("http.jsonNotObject")
        case .jsonWrongType(let field): Phrase("http.jsonWrongType", ["field": .text(field)])
        case .jsonInvalid: Phrase("http.jsonInvalid")
        case .internal: Phrase("http.internal")
        }
    }
}

extension AnsweringError {
    /// What the person is told: the error's own phrase, or HTTPLite's refusal worded; nil: the
    /// plain message.
    var wording: Phrase? { phrase ?? refusal?.phrase }
}
