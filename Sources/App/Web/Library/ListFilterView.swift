import Foundation
import Hummingbird

/// My Lists' sort and filter form (`library/lists`): a GET form, so the choice is in the address.
struct ListFilterView {
    typealias Option = SelectOption

    let list: String
    let kind: String?
    let sortOptions: [Option]
    let genreOptions: [Option]
    let ratedOptions: [Option]
    let year: String
    let text: String
    let textLimit = LibraryFilter.textLimit
    let narrows: Bool
    /// The panel is open whenever the list is not in its default order or a filter is set.
    let open: Bool
    /// The sort app.js leaves out of the address (with every empty field) when the form is sent.
    let defaultSort = LibrarySort.changed.rawValue
    let clearURL: String
    let action = Route.library.path

    init(list: LibraryList, filter: LibraryFilter, genres: [String]) {
        self.list = list.rawValue
        kind = filter.kind?.rawValue
        sortOptions = LibrarySort.allCases.map { Option(value: $0.rawValue, label: $0.label, selected: $0 == filter.sort) }
        genreOptions =
            [Option(value: "", label: "Any genre", selected: filter.genre == nil)]
            + (genres + [filter.genre].compactMap { $0 }.filter { !genres.contains($0) }).map {
                Option(value: $0, label: $0, selected: $0 == filter.genre)
            }
        ratedOptions = [("", "Rated or not", nil), ("yes", "Rated", true), ("no", "Not rated", false)].map { value, label, rated in
            Option(value: value, label: label, selected: rated == filter.rated)
        }
        year = filter.year.map(String.init) ?? ""
        text = filter.text ?? ""
        narrows = filter.narrows
        open = filter.narrows || filter.sort != .changed
        clearURL = Route.libraryList(list, filter: LibraryFilter(kind: filter.kind, sort: filter.sort))
    }

    /// The query fields of the filter form and of the page number.
    static let fieldNames = ["kind", "sort", "genre", "year", "rated", "q", "page"]

    /// Whether the query carries a filter field that says nothing (empty, the default sort, page 1):
    /// the form sent without JavaScript does, and is answered with a redirect to the clean address.
    static func carriesDefaults(_ query: [String: String]) -> Bool {
        fieldNames.contains { name in
            guard let value = query[name] else { return false }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty || (name == "sort" && trimmed == LibrarySort.changed.rawValue) || (name == "page" && trimmed == "1")
        }
    }

    /// The filter in a request's query; a value that makes no sense says what to change.
    static func parse(_ query: (String) -> String?) throws(FormInput.Invalid) -> LibraryFilter {
        func present(_ name: String) -> String? { query(name).flatMap { $0.isEmpty ? nil : $0 } }
        let kind = present("kind").map { ($0, MediaKind(rawValue: $0)) }
        if let (text, value) = kind, value == nil {
            throw FormInput.Invalid(message: "“\(text.prefix(20))” is not a kind of title. Choose movie or show.")
        }
        let sort = present("sort").map { ($0, LibrarySort(rawValue: $0)) }
        if let (text, value) = sort, value == nil {
            let choices = LibrarySort.allCases.map(\.rawValue).joined(separator: ", ")
            throw FormInput.Invalid(message: "“\(text.prefix(20))” is not a way to sort. Choose one of \(choices).")
        }
        let yearText = present("year")
        let year = yearText.flatMap { Int($0) }
        if let yearText, year == nil {
            throw FormInput.Invalid(message: "“\(yearText.prefix(20))” is not a year. Write it with four digits, such as 1994.")
        }
        let rated: Bool?
        switch present("rated") {
        case nil: rated = nil
        case "yes": rated = true
        case "no": rated = false
        case let other?: throw FormInput.Invalid(message: "“\(other.prefix(20))” is not a choice for rated: use yes or no.")
        }
        do {
            return try LibraryFilter.checked(
                kind: kind?.1, sort: sort?.1 ?? .changed, genre: present("genre"), year: year, rated: rated, text: present("q"))
        } catch {
            throw FormInput.Invalid(message: error.message)
        }
    }
}
