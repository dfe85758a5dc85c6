import Foundation

/// The store orders through PopcornSwirl are made for: this installation, as Smart-Market's partner
/// shops know it. Pushed with every click-through (`ClickThrough`), shown in the console, and the
/// currency shops report order totals in.
public struct ReferringStore: Sendable, Equatable {
    /// `STORE_ID`: 1–40 of a–z, 0–9, `-`, `_`.
    public var id = "popcornswirl"
    /// `STORE_NAME`: up to 80 characters.
    public var name = "PopcornSwirl"
    /// `STORE_COUNTRY` (else `POPCORN_COUNTRY`): the two-letter country the store sells in.
    public var country = "US"
    /// `STORE_CURRENCY`: ISO 4217, the currency order totals are reported in.
    public var currency = "USD"

    public init() {}

    /// Reads the `STORE_*` variables through `value` (nil when unset); unset ones keep their values.
    mutating func read(_ value: (String) -> String?) throws {
        typealias Invalid = AppConfig.ConfigError
        if let raw = value("STORE_ID") {
            guard (1...40).contains(raw.count), raw.allSatisfy({ ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" || $0 == "_" })
            else { throw Invalid.invalid(name: "STORE_ID", value: raw, reason: "expected 1-40 of a-z, 0-9, - and _") }
            id = raw
        }
        if let raw = value("STORE_NAME") {
            guard raw.count <= 80, !raw.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
            else { throw Invalid.invalid(name: "STORE_NAME", value: raw, reason: "expected a name of at most 80 characters on one line") }
            name = raw
        }
        if let raw = value("STORE_COUNTRY") {
            guard raw.count == 2, raw.allSatisfy({ $0.isASCII && $0.isLetter })
            else { throw Invalid.invalid(name: "STORE_COUNTRY", value: raw, reason: "expected a two-letter country code") }
            country = raw.uppercased()
        }
        if let raw = value("STORE_CURRENCY") {
            guard raw.count == 3, raw.allSatisfy({ $0.isASCII && $0.isLetter })
            else { throw Invalid.invalid(name: "STORE_CURRENCY", value: raw, reason: "expected a three-letter ISO 4217 currency code") }
            currency = raw.uppercased()
        }
    }
}
