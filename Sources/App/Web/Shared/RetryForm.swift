import Foundation
import Mustache

/// The no-JavaScript Retry: a form that posts the failed action again.
struct RetryForm {
    struct Field {
        let name: String
        let value: String
    }

    let action: String
    let fields: [Field]

    init(action: String, fields: [(String, String)]) {
        self.action = action
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }
}

extension RetryForm: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "action": action
        case "fields": fields
        default: nil
        }
    }
}

extension RetryForm.Field: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "value": value
        default: nil
        }
    }
}
