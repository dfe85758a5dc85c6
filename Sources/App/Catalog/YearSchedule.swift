import Foundation

/// How often the background worker fetches each release year's list again (`CatalogWorker`): the
/// current and next year, where new films appear, every 3 hours; the three years before, daily;
/// older years, weekly. The 78 years the picker offers cost about 31 iTunes calls a day once warm.
enum YearSchedule {
    static func interval(of year: Int, current: Int) -> TimeInterval {
        if year >= current { return 3 * 3600 }
        if year >= current - 3 { return 86_400 }
        return 7 * 86_400
    }

    /// The year to fetch next, if any is due: a year a person opened before it was ever fetched,
    /// then the others never fetched, the current year first and then outward (next year before
    /// last), then the year most overdue for its refresh.
    static func next(fetched: [Int: Date], wanted: Set<Int>, years: ClosedRange<Int>, current: Int, now: Date) -> Int? {
        let never = years.filter { fetched[$0] == nil }
        func closeness(_ year: Int) -> (Int, Int) { (abs(year - current), -year) }
        if let year = never.filter(wanted.contains).min(by: { closeness($0) < closeness($1) }) { return year }
        if let year = never.min(by: { closeness($0) < closeness($1) }) { return year }
        let overdue = years.compactMap { year -> (year: Int, by: TimeInterval)? in
            guard let fetchedAt = fetched[year] else { return nil }
            let by = now.timeIntervalSince(fetchedAt) - interval(of: year, current: current)
            return by >= 0 ? (year, by) : nil
        }
        return overdue.max { ($0.by, -$0.year) < ($1.by, -$1.year) }?.year
    }
}
