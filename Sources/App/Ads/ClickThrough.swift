import Foundation

/// Where on a page an offer was shown.
public enum Placement: String, Sendable, CaseIterable {
    /// The banner at the bottom of a film's or show's page.
    case banner
    /// A row of "Shop related products" on a film's or show's page.
    case shop
    /// A sponsored card in a listing.
    case sponsored
}

/// What a click-through tells the shop: which click (so the shop can report an order back), which
/// store the order is for, where the offer was, and the title and listing it was shown with.
struct ClickDetails: Sendable {
    struct Title: Sendable {
        let ref: TitleRef
        let name: String?
        let year: Int?
    }

    let clickID: UUID
    let placement: Placement
    /// The listing a sponsored card was on (`ListingContext.name`), e.g. `movies-2024`.
    let listing: String?
    let title: Title?
    let store: ReferringStore
    let at: Date

    /// A listing name as pushed to shops: 1–60 of a–z, 0–9 and `-`; anything else is dropped.
    static func listingName(_ raw: String?) -> String? {
        guard let raw, (1...60).contains(raw.utf8.count),
            raw.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        return raw
    }
}

/// Where a click on an offer goes: the offer's stored landing URL plus the context the shop is
/// given. Only the query string is added to; scheme, host, port and path are the stored ones.
enum ClickThrough {
    static let utmParameters: Set<String> = ["utm_source", "utm_medium", "utm_campaign"]

    /// The parameters pushed to the shop, `ps_sig` last (see `ShopSignature` and the README).
    static func parameters(offer: Offer, _ details: ClickDetails, secret: String?) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = [
            ("ps_click", details.clickID.uuidString.lowercased()), ("ps_offer", String(offer.id)),
            ("ps_store", details.store.id), ("ps_store_name", details.store.name), ("ps_store_country", details.store.country),
            ("ps_placement", details.placement.rawValue),
        ]
        if let title = details.title {
            out += [("ps_title_kind", title.ref.kind.rawValue), ("ps_title_id", String(title.ref.id))]
            if let name = title.name.map(oneLine), !name.isEmpty { out.append(("ps_title_name", String(name.prefix(200)))) }
            if let year = title.year { out.append(("ps_title_year", String(year))) }
        }
        if let listing = details.listing { out.append(("ps_listing", listing)) }
        out.append(("ps_ts", String(Int(details.at.timeIntervalSince1970.rounded(.down)))))
        if let secret { out.append((ShopSignature.parameter, ShopSignature.sign(Array(ShopSignature.clickMessage(out).utf8), secret: secret))) }
        return out
    }

    static func destination(offer: Offer, _ details: ClickDetails, secret: String?) -> URL? {
        guard var components = URLComponents(url: offer.landingURL, resolvingAgainstBaseURL: false),
            components.scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        // The landing URL's own parameters stay, but none that could pass for ours.
        var query = (components.percentEncodedQuery ?? "").split(separator: "&").map(String.init).filter { pair in
            let raw = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? pair
            let name = raw.removingPercentEncoding ?? raw
            return !utmParameters.contains(name) && !name.hasPrefix(ShopSignature.prefix)
        }
        let added =
            [("utm_source", "popcornswirl"), ("utm_medium", "offer"), ("utm_campaign", String(offer.id))]
            + parameters(offer: offer, details, secret: secret)
        query += added.map { "\($0.0)=\(strictlyEncoded($0.1))" }
        components.percentEncodedQuery = query.joined(separator: "&")
        components.fragment = nil
        guard let url = components.url, url.host == host, url.scheme == "https" else { return nil }
        return url
    }

    /// Control characters and line breaks (which would blur the signed message's lines) become spaces.
    static func oneLine(_ text: String) -> String {
        let breaks: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        return String(String.UnicodeScalarView(text.unicodeScalars.map { breaks.contains($0.properties.generalCategory) ? " " : $0 }))
            .trimmingCharacters(in: .whitespaces)
    }

    /// Percent-encodes all but unreserved characters (`PercentEncoding.query` leaves `/`, harmless in a query value).
    static func strictlyEncoded(_ value: String) -> String {
        PercentEncoding.query(value).replacingOccurrences(of: "/", with: "%2F")
    }
}
