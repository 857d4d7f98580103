/// Values that are the same for many renders (a language's catalog, `{{t.…}}`), converted to
/// the renderer's own form once: a page hands this in place of the `[String: Any]`, and a
/// render takes it as it is instead of converting every entry again (for the catalog, three
/// times the CPU of a whole Login page).
public struct PreparedValues: @unchecked Sendable {
    /// For the compiled templates.
    let value: TemplateValue
    /// For the swift-mustache reference (``PageRenderer/renderWithMustache(_:_:)``).
    let original: [String: Any]

    public init(_ values: [String: Any]) {
        self.value = TemplateValue(values)
        self.original = values
    }
}
