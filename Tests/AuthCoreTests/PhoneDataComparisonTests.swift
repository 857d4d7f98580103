import Foundation
import Testing

@testable import AuthCore

/// Our parser against libphonenumber itself, number by number: `scripts/phone-data-check`
/// writes the `phonenumbers` package's verdicts on every area code and 100,000 random numbers
/// to a file and names it in `PHONE_DATA_CASES`; without it the test is skipped.
@Suite("Phone data against libphonenumber")
struct PhoneDataComparisonTests {
    static let casesPath = ProcessInfo.processInfo.environment["PHONE_DATA_CASES"]

    @Test(
        "every number gets the phonenumbers package's verdict, region and type",
        .enabled(if: casesPath != nil, "PHONE_DATA_CASES names no file (./scripts/phone-data-check sets it)"))
    func sameVerdictAsLibphonenumber() throws {
        let text = try String(contentsOfFile: try #require(Self.casesPath), encoding: .utf8)
        let all = text.split(separator: "\n")
        let header = try #require(all.first)
        let lines = all.dropFirst()
        #expect(header == "# phonenumbers \(NANPMetadata.phonenumbersVersion)", "cases from another version")

        var compared = 0
        var valid = 0
        var mismatches: [String] = []
        for line in lines {
            let fields = line.split(separator: " ")
            let expected = fields.count == 3 ? "\(fields[1]) \(fields[2])" : "-"
            let ours =
                (try? PhoneNumber(parsing: "+1\(fields[0])")).map { "\($0.region) \($0.numberType.rawValue)" } ?? "-"
            compared += 1
            if expected != "-" { valid += 1 }
            if ours != expected, mismatches.count < 20 {
                mismatches.append("\(fields[0]): ours \(ours), libphonenumber \(expected)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(compared >= 200_000)
        // A file of nothing but invalid numbers would prove little.
        #expect(valid >= compared / 4)
        print("Compared \(compared) numbers with libphonenumber (\(valid) valid): \(mismatches.count) differ")
    }
}
