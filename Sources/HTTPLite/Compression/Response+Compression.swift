import HTTPTypes

extension Response {
    /// The header ``keepUncompressed()`` sets; ``ResponseCompression`` removes it before the
    /// answer leaves, so it is never on the wire.
    static let uncompressedMarker = HTTPField.Name("x-httplite-keep-uncompressed")!

    /// Sends this answer as it is, whatever the client accepts.
    ///
    /// For a page that reflects what the request said (a query parameter, a typed value) next to
    /// something the visitor must not learn by guessing (a phone number): compressed, the size of
    /// the answer would tell a guesser watching the wire when the guess matched (BREACH).
    public mutating func keepUncompressed() {
        headers[Self.uncompressedMarker] = "1"
    }

    /// Adds `Accept-Encoding` to `Vary` (keeping what is there): caches must keep the gzip and
    /// the identity answer apart.
    mutating func varyOnAcceptEncoding() {
        guard !headers.containsListElement(.vary, where: { $0 == "*" || $0.equalsIgnoringCase("accept-encoding") })
        else { return }
        headers.append(HTTPField(name: .vary, value: "Accept-Encoding"))
    }
}
