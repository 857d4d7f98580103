import Testing

@testable import AuthCore

/// Region and type of a parsed number, as libphonenumber gives them (checked against the
/// `phonenumbers` package itself, number by number, by `scripts/phone-data-check`).
@Suite("Phone number regions and types")
struct PhoneNumberRegionTests {
    @Test(
        "a number knows its region and its type",
        arguments: [
            ("(530) 555-0123", "US", PhoneNumber.NumberType.fixedLineOrMobile),
            ("212-555-0123", "US", .fixedLineOrMobile),
            ("+1 415 555 0199", "US", .fixedLineOrMobile),
            ("(800) 234-5678", "US", .tollFree),
            ("888.555.0123", "US", .tollFree),
            ("900-234-5678", "US", .premiumRate),
            ("500-234-5678", "US", .personalNumber),
            ("(876) 210-1234", "JM", .mobile),
            ("(876) 606-0123", "JM", .fixedLine),
            ("(876) 523-0123", "JM", .fixedLineOrMobile),
            ("(809) 234-5678", "DO", .fixedLineOrMobile),
            ("(441) 370-1234", "BM", .mobile),
            ("(441) 412-3456", "BM", .fixedLine),
            ("(416) 234-5678", "CA", .fixedLineOrMobile),
            ("(600) 234-5678", "CA", .voip),
            ("(787) 234-5678", "PR", .fixedLineOrMobile),
            ("(340) 642-1234", "VI", .fixedLineOrMobile),
            ("(671) 300-1234", "GU", .fixedLineOrMobile),
            ("(684) 733-1234", "AS", .mobile),
            ("(670) 234-5678", "MP", .fixedLineOrMobile),
        ])
    func regionAndType(_ input: String, _ region: String, _ type: PhoneNumber.NumberType) throws {
        let phone = try PhoneNumber(parsing: input)
        #expect(phone.region == region)
        #expect(phone.numberType == type)
    }

    @Test(
        "numbers of the right shape that are valid nowhere are invalid",
        arguments: [
            "(999) 555-0123", "(555) 555-0123", "(340) 312-3456", "(684) 234-5678", "(200) 000-0000",
            "(876) 111-1234", "(530) 155-0123",
        ])
    func validNowhere(_ input: String) {
        #expect(throws: PhoneNumber.ParseError.invalid) { try PhoneNumber(parsing: input) }
    }

    @Test("a stored number parses back with the same region and type, whatever the typed shape was")
    func storedFormKeepsRegionAndType() throws {
        for typed in ["(876) 210-1234", "1-416-234-5678", "800 234 5678"] {
            let phone = try PhoneNumber(parsing: typed)
            #expect(try PhoneNumber(parsing: phone.e164) == phone)
        }
    }

    @Test("the metadata records the phonenumbers version it was generated from")
    func metadataVersion() {
        #expect(NANPMetadata.phonenumbersVersion.split(separator: ".").count == 3)
        #expect(NANPMetadata.regions.first == "US" && NANPMetadata.regions.count == 25)
    }
}
