import HTTPTypes
import Testing

@testable import HTTPLite

/// List-valued fields (`Connection`, `Vary`) are read element by element, without case, on bytes.
@Suite("Field lists")
struct FieldListTests {
    @Test(
        "an element is found whatever its case and the spaces around it",
        arguments: [
            ("close", true), ("Close", true), ("keep-alive, CLOSE", true), (" \tclose ", true), ("closed", false),
            ("clos", false), ("", false), ("keep-alive,, upgrade", false), ("clöse", false),
        ])
    func connectionClose(_ value: String, _ found: Bool) {
        let fields: HTTPFields = [.connection: value]
        #expect(fields.containsListElement(.connection, where: { $0.equalsIgnoringCase("close") }) == found)
    }

    @Test("elements are looked for in every field of the name, and only there")
    func everyField() {
        var fields: HTTPFields = [.vary: "Cookie"]
        fields.append(HTTPField(name: .vary, value: "Accept-Encoding"))
        fields.append(HTTPField(name: .connection, value: "accept-encoding"))
        #expect(fields.containsListElement(.vary, where: { $0.equalsIgnoringCase("accept-encoding") }))
        #expect(!fields.containsListElement(.vary, where: { $0.equalsIgnoringCase("connection") }))
    }
}
