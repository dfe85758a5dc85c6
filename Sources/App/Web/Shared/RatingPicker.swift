import Foundation
import Mustache

/// A title's rating form (`shared/rating`): a select from "No rating" to 5 stars in half stars
/// and a Rate button. Without JavaScript it posts and comes back at the card; with it, app.js
/// saves in place and says the new rating.
struct RatingPicker: Hashable {
    typealias Option = SelectOption

    let actionURL: String
    let returnTo: String
    /// Unique on a page: a title appears once.
    let fieldID: String
    let title: String
    /// The select's options, written once per rating at start-up: 60 cards × 11 options × 3
    /// template lookups were most of a cold My Lists page's rendering (perf).
    let optionsHTML: String

    init(actionURL: String, returnTo: String, anchor: String, title: String, rating: Int?) {
        self.actionURL = actionURL
        self.returnTo = returnTo
        fieldID = "rating-\(anchor)"
        self.title = title
        optionsHTML = Self.optionsHTML[rating.flatMap { Rating.range.contains($0) ? $0 : nil } ?? 0]
    }

    /// Index 0: nothing rated; 1–10: that rating selected. Labels are fixed text ("3½ stars"), escaped all the same.
    static let optionsHTML: [String] = (0...10).map { selected in
        options(selected: selected == 0 ? nil : selected).map { option in
            "<option value=\"\(option.value)\"\(option.selected ? " selected" : "")>\(UTF8HTMLEscaping.escape(option.label))</option>"
        }.joined()
    }

    /// "No rating", then ½ star to 5 stars.
    static func options(selected rating: Int?) -> [Option] {
        [Option(value: "0", label: "No rating", selected: rating == nil)]
            + Rating.range.map { Option(value: String($0), label: Rating.words($0), selected: $0 == rating) }
    }
}

/// Every card of My Lists carries a picker of eleven options: looked up without reflection, as the
/// cards themselves are (reflection cost more than the rest of the card).
extension RatingPicker: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "fieldID": fieldID
        case "title": title
        case "optionsHTML": optionsHTML
        default: nil
        }
    }
}

/// One `<option>` of a select a page draws (rating pickers, My Lists' sort and filter).
struct SelectOption {
    let value: String
    let label: String
    let selected: Bool
}

extension SelectOption: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}
