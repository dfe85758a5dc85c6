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

    /// `offer_clicks` rows by `discarded` ("counted" for NULL).
    func clickRows() async throws -> [String: Int] {
        let rows = try await services.database.sql.raw("SELECT discarded, COUNT(*) AS n FROM offer_clicks GROUP BY discarded").all()
        var counts: [String: Int] = [:]
        for row in rows {
            counts[try row.decode(column: "discarded", as: String?.self) ?? "counted"] = try row.decode(column: "n", as: Int.self)
        }
        return counts
    }
}
