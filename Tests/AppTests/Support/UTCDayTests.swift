import Foundation
import Testing

@testable import App

@Suite("UTC days without ICU")
struct UTCDayTests {
    @Test("dayStyle writes the same yyyy-MM-dd as the formatter, at midnight, a second before and through leap days and centuries")
    func sameAsFormatter() {
        var generator = SplitMix(seed: 1583)
        // 1583-01-01 to 9999-12-31: the formatter's calendar is Julian before October 1582.
        let first = -12_212_553_600.0
        let last = 253_402_300_799.0
        var moments = [first, last, 0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 951_868_800, 4_107_542_400, 1_700_000_000.5]
        for day in stride(from: -4_000, through: 4_000, by: 1) { moments.append(Double(day) * 86_400 + 43_200) }
        for _ in 0..<20_000 { moments.append(Double.random(in: first...last, using: &generator).rounded(.down)) }
        let mismatches = moments.filter { moment in
            let date = Date(timeIntervalSince1970: moment)
            return date.formatted(UTCFormatters.dayStyle) != UTCFormatters.day.string(from: date)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5).map { UTCFormatters.day.string(from: Date(timeIntervalSince1970: $0)) })")
        #expect(Date(timeIntervalSince1970: 951_782_400).formatted(UTCFormatters.dayStyle) == "2000-02-29")
        #expect(Date(timeIntervalSince1970: -1).formatted(UTCFormatters.dayStyle) == "1969-12-31")
    }

    @Test("a diary day is written as the formatter writes it (d MMMM yyyy), and what is not a day is shown as it is")
    func longDay() {
        var generator = SplitMix(seed: 2026)
        var days = ["2000-02-29", "1999-12-31", "2026-01-01", "1600-03-01", "9999-12-31"]
        for _ in 0..<5_000 {
            let date = Date(timeIntervalSince1970: Double.random(in: -12_212_553_600.0...253_402_300_799.0, using: &generator))
            days.append(UTCFormatters.day.string(from: date))
        }
        for day in days {
            #expect(WatchView.longDay(day) == UTCFormatters.longDay.string(from: UTCFormatters.noon(ofDay: day)!), "\(day)")
        }
        for text in ["2026-13-01", "2026-02-30", "26-01-01", "2026-1", "", "yesterday"] { #expect(WatchView.longDay(text) == text) }
    }
}
