extension PhoneNumber {
    /// What kind of line a number is, as libphonenumber's `PhoneNumberType` names it.
    ///
    /// Decides whether a code may be texted to it (``PhoneRegions``): a toll-free or premium-rate
    /// number cannot receive a text, and texting one costs money or helps SMS pumping.
    public enum NumberType: String, Sendable, Hashable, CaseIterable {
        case fixedLine
        case mobile
        /// Fixed line and mobile numbers cannot be told apart in the region (the US, Canada).
        case fixedLineOrMobile
        case tollFree
        case premiumRate
        /// The caller and the called pay part of the cost each.
        case sharedCost
        case voip
        /// A number that follows a person rather than a line (the 500 and 52x codes).
        case personalNumber
        case pager
        /// A "universal access number", one number for a company's several offices.
        case uan
        case voicemail
    }
}
