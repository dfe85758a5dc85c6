import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import App

/// Fetch Metadata a browser sends with a request (`Sec-Fetch-Site`, `-Mode`, `-Dest`).
struct FetchHeaders: Sendable {
    let site: String
    let mode: String
    let dest: String

    /// An `<img src>` on another site's page.
    static let crossSiteImage = FetchHeaders(site: "cross-site", mode: "no-cors", dest: "image")
    /// A link on another site's page, followed.
    static let crossSiteLink = FetchHeaders(site: "cross-site", mode: "navigate", dest: "document")
    /// A link on this site's own pages, followed.
    static let ownLink = FetchHeaders(site: "same-origin", mode: "navigate", dest: "document")
}

extension TestClientProtocol {
    /// Follows an offer's click link as visitor `visitor` (`Visitors.cookie`), with the browser's headers if given.
    func click(_ offer: Int, visitor: Int, fetch: FetchHeaders? = nil, title: String? = nil) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.cookie] = Visitors.cookie(visitor)
        if let fetch {
            headers[HTTPField.Name("Sec-Fetch-Site")!] = fetch.site
            headers[HTTPField.Name("Sec-Fetch-Mode")!] = fetch.mode
            headers[HTTPField.Name("Sec-Fetch-Dest")!] = fetch.dest
        }
        return try await execute(uri: "/offers/\(offer)/go" + (title.map { "?title=\($0)" } ?? ""), method: .get, headers: headers)
    }
}

extension TestApp {
    /// An offer's totals for the clock's day, as the console's report reads them.
    func clickTotals(_ offer: Int) async throws -> OfferReport.Row {
        let today = services.offerAdmin.today
        return try await services.offerAdmin.report(.offer(offer), range: ReportRange(from: today, to: today)).totals
    }

    /// Clicks as stored: counted ones are `offer_clicks` rows ("counted"), discarded ones counts per
    /// reason in `offer_discarded_clicks` (no row of their own).
    func clickRows() async throws -> [String: Int] {
        let sql = try services.database.sql
        var counts: [String: Int] = [:]
        for row in try await sql.raw("SELECT discarded, COUNT(*) AS n FROM offer_clicks GROUP BY discarded").all() {
            counts[try row.decode(column: "discarded", as: String?.self) ?? "counted", default: 0] += try row.decode(column: "n", as: Int.self)
        }
        for row in try await sql.raw("SELECT reason, CAST(SUM(clicks) AS BIGINT) AS n FROM offer_discarded_clicks GROUP BY reason").all() {
            counts[try row.decode(column: "reason", as: String.self), default: 0] += try row.decode(column: "n", as: Int.self)
        }
        return counts
    }

    /// Rows in `offer_clicks`: one per counted click.
    func offerClickRowCount() async throws -> Int {
        try await services.database.sql.raw("SELECT COUNT(*) AS n FROM offer_clicks").first(decodingColumn: "n", as: Int.self) ?? 0
    }
}
