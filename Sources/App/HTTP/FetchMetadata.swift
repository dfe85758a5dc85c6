import Foundation
import HTTPTypes

/// What a browser says about why it sends a request (Fetch Metadata: `Sec-Fetch-Site`,
/// `Sec-Fetch-Mode`, `Sec-Fetch-Dest`). Browsers set these and a page's script cannot; older
/// browsers and tools (curl) send none.
struct FetchMetadata: Sendable, Equatable {
    static let siteHeader = HTTPField.Name("Sec-Fetch-Site")!
    static let modeHeader = HTTPField.Name("Sec-Fetch-Mode")!
    static let destHeader = HTTPField.Name("Sec-Fetch-Dest")!

    /// Set by the offline service worker (`sw.js`) on the pages it keeps in the background, which
    /// nobody is looking at.
    static let backgroundKeepHeader = HTTPField.Name("X-Offline-Keep")!

    let site: String?
    let mode: String?
    let dest: String?
    /// The page is fetched to be kept on the phone for later, not shown now: it counts no offer
    /// impression and uses nobody's frequency cap.
    let isBackgroundKeep: Bool

    init(_ headers: HTTPFields) {
        site = headers.value(Self.siteHeader).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        mode = headers.value(Self.modeHeader).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        dest = headers.value(Self.destHeader).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        isBackgroundKeep = headers.value(Self.backgroundKeepHeader) != nil
    }

    /// A browser sent it (every current one sends `Sec-Fetch-Site`; a crawler or script does not).
    var isBrowser: Bool { site != nil }

    /// The request comes from this site's own pages or from the person (typed, bookmarked), or
    /// from a client that sends no Fetch Metadata: not from another site's page.
    var isOwnRequest: Bool { site == nil || site == "same-origin" || site == "none" }

    /// Another site's page made the browser request this as part of that page (an `<img>`, a
    /// `<script>`, a `fetch()`, a frame), rather than a person following a link to a top-level page:
    /// `Sec-Fetch-Site: cross-site` with a destination other than `document` or a mode other than
    /// `navigate`. Same-origin, same-site and `none` (typed or bookmarked), and requests without the
    /// headers, are not.
    var isCrossSiteSubresource: Bool {
        site == "cross-site" && (dest != "document" || mode != "navigate")
    }
}
