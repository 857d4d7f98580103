import Foundation

/// The numbers sign-in texts codes to: valid numbers of the allowed regions whose type can
/// receive a text and costs nothing unusual to reach.
///
/// Kept apart from parsing (``PhoneNumber/init(parsing:)`` says what a number is, this says
/// whether we text it), so a number stored while another set was allowed still reads back.
public struct PhoneRegions: Sendable, Hashable, CustomStringConvertible {
    /// ISO codes of the regions whose numbers are texted (each a region of country code 1).
    public let codes: Set<String>

    /// The types a code is texted to. Toll-free, premium-rate and shared-cost numbers cost the
    /// sender, or pay whoever runs them (SMS pumping); personal numbers, pagers, UANs and
    /// voicemail cannot read a text or do not stand for one person's phone.
    public static let textedTypes: Set<PhoneNumber.NumberType> = [.fixedLine, .mobile, .fixedLineOrMobile, .voip]

    /// The default: numbers of the United States only (not its territories, Canada or the
    /// Caribbean, which share its country code 1).
    public static let unitedStates = PhoneRegions(uncheckedCodes: ["US"])

    /// Why a list of regions was refused.
    public struct UnknownRegion: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was given where a region was expected ("" for an empty list or entry).
        public let given: String

        public var description: String {
            let known = NANPMetadata.regions.joined(separator: ",")
            if given.isEmpty { return "Give one or more regions of country code 1, such as US or US,PR,CA (\(known))." }
            return "\(given) is not a region of country code 1 (\(known))."
        }
    }

    /// The regions in `list`, a comma list of ISO codes such as `US,PR,VI,GU,AS,MP,CA` (case and
    /// spaces do not matter), each of which must be a region of country code 1.
    public init(parsing list: String) throws(UnknownRegion) {
        var codes: Set<String> = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            let code = entry.trimmingCharacters(in: .whitespaces).uppercased()
            guard NANPMetadata.regions.contains(code) else { throw UnknownRegion(given: code) }
            codes.insert(code)
        }
        self.init(uncheckedCodes: codes)
    }

    private init(uncheckedCodes codes: Set<String>) {
        self.codes = codes
    }

    /// Whether a code may be texted to `phone`.
    public func accepts(_ phone: PhoneNumber) -> Bool {
        codes.contains(phone.region) && Self.textedTypes.contains(phone.numberType)
    }

    /// The list as the option takes it, in libphonenumber's order of the regions: `US,CA,PR`.
    public var description: String {
        NANPMetadata.regions.filter(codes.contains).joined(separator: ",")
    }
}
