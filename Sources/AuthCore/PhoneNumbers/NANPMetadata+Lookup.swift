extension NANPMetadata {
    /// The region and type libphonenumber gives the ten national digits (ASCII `0`–`9`) of a
    /// number of country code 1, or `nil` when it is not a valid number of any region.
    ///
    /// A walk down the generated trie, one step per digit and often fewer (a walk stops where
    /// every longer number gets the same verdict): no regex and no allocation, because it runs
    /// on every Login POST and every stored number read back.
    static func classify(_ national: some Collection<UInt8>) -> (region: String, type: PhoneNumber.NumberType)? {
        guard national.count == 10 else { return nil }
        var node = 0
        for byte in national {
            let digit = Int(byte &- UInt8(ascii: "0"))
            guard digit < 10 else { return nil }
            let entry = trie[node * 10 + digit]
            if entry & leaf != 0 { return classes[Int(entry & ~leaf)] }
            node = Int(entry)
        }
        // The generator ends every walk in a leaf by the tenth digit.
        return nil
    }
}
