import Foundation

/// Where a click on an offer goes: the offer's stored landing URL plus the context the shop asked
/// for. Only the query string is added to; scheme, host, port and path are the stored ones.
enum ClickThrough {
    static let ownParameters: Set<String> = ["utm_source", "utm_medium", "utm_campaign", "title_id", "title_name", "store"]

    static func destination(offer: Offer, title: TitleRef?, titleName: String?, store: String) -> URL? {
        guard var components = URLComponents(url: offer.landingURL, resolvingAgainstBaseURL: false),
            components.scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        var query = (components.percentEncodedQuery ?? "").split(separator: "&").map(String.init).filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? pair
            return !ownParameters.contains(name.removingPercentEncoding ?? name)
        }
        var added: [(String, String)] = [("utm_source", "popcornswirl"), ("utm_medium", "offer"), ("utm_campaign", String(offer.id))]
        if let title { added.append(("title_id", title.description)) }
        if let titleName, !titleName.isEmpty { added.append(("title_name", String(titleName.prefix(200)))) }
        added.append(("store", store))
        query += added.map { "\($0.0)=\(strictlyEncoded($0.1))" }
        components.percentEncodedQuery = query.joined(separator: "&")
        components.fragment = nil
        guard let url = components.url, url.host == host, url.scheme == "https" else { return nil }
        return url
    }

    /// Percent-encodes all but unreserved characters (`PercentEncoding.query` leaves `/`, harmless in a query value).
    static func strictlyEncoded(_ value: String) -> String {
        PercentEncoding.query(value).replacingOccurrences(of: "/", with: "%2F")
    }
}
