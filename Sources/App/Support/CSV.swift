/// RFC 4180 CSV: fields with a comma, quote or line break are quoted (quotes doubled), lines end
/// in CRLF. A field a spreadsheet would run as a formula (starting with `=`, `@`, a tab or a
/// carriage return, or with `+` or `-` when it is not a plain number) gets a leading `'`, as OWASP
/// advises: the CSVs are opened in spreadsheets, and titles and notes come from outside. Excel
/// with `;` as its list separator (most European locales) splits a field at each `;`, so every
/// part after one is defused the same way, and a field holding a `;` is quoted.
public enum CSV {
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ raw: String) -> String {
        let value = defused(raw)
        guard value.contains(where: { $0 == "," || $0 == ";" || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Each cell a spreadsheet could make of the field: the whole of it, and each part after a `;`.
    static func defused(_ value: String) -> String {
        guard value.contains(";") else { return defusedCell(Substring(value)) }
        return value.split(separator: ";", omittingEmptySubsequences: false).map(defusedCell).joined(separator: ";")
    }

    private static func defusedCell(_ value: Substring) -> String {
        guard let first = value.unicodeScalars.first else { return String(value) }
        switch first {
        case "=", "@", "\t", "\r": return "'" + value
        case "+", "-": return Double(value) == nil ? "'" + value : String(value)
        default: return String(value)
        }
    }
}
