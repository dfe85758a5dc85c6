/// The year a person's statistics review: from 1888 (the first film) to 2100.
enum ReviewYear {
    static let range = 1888...2100

    /// A year that is not one to review, with the words saying so.
    struct Invalid: Error, Sendable {
        let message: String
    }

    /// The year asked for; nil (all time) when none is given.
    static func parse(_ raw: String?) throws(Invalid) -> Int? {
        guard let raw, !raw.isEmpty else { return nil }
        guard let year = Int(raw), range.contains(year) else {
            throw Invalid(message: "“\(raw.prefix(20))” is not a year to review: choose one from \(range.lowerBound) to \(range.upperBound).")
        }
        return year
    }
}
