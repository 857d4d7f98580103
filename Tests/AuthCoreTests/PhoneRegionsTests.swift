import Testing

@testable import AuthCore

/// Which valid numbers get a code: US numbers that can take a text by default, more regions
/// when `--phone-regions` lists them, never toll-free or premium-rate ones.
@Suite("Regions codes are texted to")
struct PhoneRegionsTests {
    @Test(
        "by default, only US numbers that can take a text are accepted",
        arguments: ["(530) 555-0123", "(212) 555-0123", "(415) 555-0199", "530.555.0124", "+1 312 234 5678"])
    func usAccepted(_ input: String) throws {
        #expect(PhoneRegions.unitedStates.accepts(try PhoneNumber(parsing: input)))
    }

    @Test(
        "by default, other regions and numbers that cannot take a code are refused",
        arguments: [
            "(876) 210-1234",  // Jamaica
            "(809) 234-5678",  // Dominican Republic
            "(441) 370-1234",  // Bermuda
            "(416) 234-5678",  // Canada
            "(787) 234-5678",  // Puerto Rico
            "(900) 234-5678",  // premium rate
            "(800) 234-5678",  // toll free
            "(888) 555-0123",  // toll free
            "(500) 234-5678",  // personal number
        ])
    func othersRefused(_ input: String) throws {
        #expect(!PhoneRegions.unitedStates.accepts(try PhoneNumber(parsing: input)))
    }

    @Test("listing regions widens the set, still without toll-free, premium-rate or personal numbers")
    func widened() throws {
        let regions = try PhoneRegions(parsing: "US,PR,VI,GU,AS,MP,CA")
        for accepted in ["(416) 234-5678", "(787) 234-5678", "(340) 642-1234", "(530) 555-0123", "(600) 234-5678"] {
            #expect(regions.accepts(try PhoneNumber(parsing: accepted)), "\(accepted)")
        }
        for refused in ["(876) 210-1234", "(809) 234-5678", "(800) 234-5678", "(900) 234-5678", "(500) 234-5678"] {
            #expect(!regions.accepts(try PhoneNumber(parsing: refused)), "\(refused)")
        }
    }

    @Test("a list without US refuses US numbers")
    func withoutUS() throws {
        let canada = try PhoneRegions(parsing: "CA")
        #expect(canada.accepts(try PhoneNumber(parsing: "(416) 234-5678")))
        #expect(!canada.accepts(try PhoneNumber(parsing: "(530) 555-0123")))
    }

    @Test("the list is read without regard to case or spaces, and said back in libphonenumber's order")
    func listParsing() throws {
        let regions = try PhoneRegions(parsing: " ca, us ,PR")
        #expect(regions.codes == ["US", "CA", "PR"])
        #expect(regions.description == "US,CA,PR")
        #expect(PhoneRegions.unitedStates.description == "US")
        #expect(try PhoneRegions(parsing: "US") == .unitedStates)
    }

    @Test(
        "a region outside country code 1, or an empty entry, is refused", arguments: ["GB", "US,XX", "", "US,", "USA"])
    func unknownRegion(_ list: String) {
        #expect(throws: PhoneRegions.UnknownRegion.self) { try PhoneRegions(parsing: list) }
    }

    @Test("the refusal names what was wrong and what would do")
    func unknownRegionMessage() {
        #expect(
            PhoneRegions.UnknownRegion(given: "GB").description.hasPrefix(
                "GB is not a region of country code 1 (US,AG,"))
        #expect(PhoneRegions.UnknownRegion(given: "").description.hasPrefix("Give one or more regions"))
    }
}
