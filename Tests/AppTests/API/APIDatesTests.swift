import Foundation
import OpenAPIRuntime
import Testing

@testable import App

@Suite("API: times written as the OpenAPI runtime's default writes them")
struct APIDatesTests {
    @Test("the same text as ISO8601DateTranscoder.iso8601 from 1583 to 9999, fractions of a second included, and read back the same")
    func sameText() throws {
        let fast = APIDates()
        let reference = ISO8601DateTranscoder.iso8601
        var generator = SystemRandomNumberGenerator()
        // -12,212,553,600 is 1583-01-01; 253,402,300,799 is 9999-12-31T23:59:59.
        var moments: [Double] = [0, -0.5, 0.999_999, 1_700_000_000.5, 1_700_000_000.999_9, 951_782_400, 4_107_542_399.75]
        // Either side of the millisecond the default rounds to, after and before 1970.
        moments += [1_700_000_000.999_4, 1_700_000_000.999_5, 1_700_000_000.999_6, -0.000_4, -0.000_5, -0.000_6, -1.000_5, -0.999_5]
        moments += (0..<20_000).map { _ in Double.random(in: -12_212_553_600..<253_402_300_799, using: &generator) }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: seconds)
            let text = try fast.encode(date)
            #expect(text == (try reference.encode(date)), "\(seconds)")
            #expect(try fast.decode(text) == (try reference.decode(text)))
        }
    }

    @Test("a time with a fraction of a second is read too (a client's Change-Made-At); a time that is not one is still refused")
    func fractions() throws {
        let dates = APIDates()
        #expect(try dates.decode("2026-11-25T08:30:00.250Z") == Date(timeIntervalSince1970: 1_795_595_400.25))
        #expect(try dates.decode("2026-11-25T08:30:00Z") == Date(timeIntervalSince1970: 1_795_595_400))
        #expect(throws: (any Error).self) { try dates.decode("yesterday") }
    }
}
