import Foundation
import Mustache

/// The box that opens a form which came back with problems (WCAG 3.3.1, 3.3.3): a heading saying
/// how many, then every problem at once, each a link to its field, in the form's order. The box
/// takes focus when the page loads (`autofocus` on a `tabindex="-1"` box), so a screen reader
/// starts with what went wrong; each field says it is invalid (`aria-invalid`) and points at its
/// own message (`aria-describedby`) in the template.
struct ErrorSummary {
    struct Item {
        let message: String
        /// `#field-id`, or nil for a problem of the whole form.
        let href: String?
    }

    let title: String
    let items: [Item]

    /// `fields` pairs each error key with its field's element id, in the form's order; problems
    /// under other keys (such as `form`) come first, without a link. Nil when there is nothing wrong.
    init?(_ errors: [String: String], fields: [(key: String, id: String)]) {
        guard !errors.isEmpty else { return nil }
        let known = Set(fields.map(\.key))
        let general = errors.filter { !known.contains($0.key) }.sorted { $0.key < $1.key }.map { Item(message: $0.value, href: nil) }
        let linked = fields.compactMap { field in errors[field.key].map { Item(message: $0, href: "#\(field.id)") } }
        items = general + linked
        title = items.count == 1 ? "There is a problem" : "There are \(items.count) problems"
    }

    /// For a form whose fields' ids are the error keys with a prefix (`offer-` + `headline`).
    init?(_ errors: [String: String], keys: [String], idPrefix: String) {
        self.init(errors, fields: keys.map { ($0, idPrefix + $0) })
    }
}

/// Opened by the list forms and the account forms (`shared/error_summary`): answered by a switch.
extension ErrorSummary: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "items": items
        default: nil
        }
    }
}

extension ErrorSummary.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "message": message
        case "href": href
        default: nil
        }
    }
}
