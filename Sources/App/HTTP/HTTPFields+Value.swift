import HTTPTypes

extension HTTPFields {
    /// `self[name]`, without its lazy join of the values when the field is sent once (as it almost
    /// always is): the join instantiated generic metadata on every call, 3 % of a cached page's CPU
    /// (perf, sorted My Lists) from the middlewares' few reads.
    func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}
