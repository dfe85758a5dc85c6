import Foundation

/// The one source of the site's URLs: routes and the links that point at them use these.
enum Paths {
    static let home = "/"
    static let search = "/search"
    static let shows = "/shows"
    static let stylesheet = "/static/app.css"
    static let script = "/static/app.js"

    static let showFavorites = "/shows/favorites"
    static let tvmazeCredit = "https://www.tvmaze.com/"

    static func search(_ text: String) -> String { "/search?q=\(query(text))" }
    /// Where the no-JavaScript collection button returns: the same search, announcing what the button did.
    static func searchDone(_ searchPath: String, _ action: String) -> String {
        searchPath + (searchPath.contains("?") ? "&" : "?") + "done=\(action)"
    }
    static func shows(page: Int) -> String { page > 1 ? "/shows?page=\(page)" : "/shows" }
    static func showSearch(_ text: String) -> String { "/shows?q=\(query(text))" }
    static func show(_ id: Int) -> String { "/shows/\(id)" }
    static func libraryShow(_ id: Int) -> String { "/library/shows/\(id)" }
    static func removeShow(_ id: Int) -> String { "/library/shows/\(id)/remove" }
    static func removeShowConfirmation(_ id: Int, returnTo: String) -> String {
        "/library/shows/\(id)/remove?return_to=\(query(returnTo))"
    }

    static func movies(year: Int) -> String { "/movies?year=\(year)" }
    static func movie(_ id: Int) -> String { "/movies/\(id)" }
    static func libraryMovie(_ id: Int) -> String { "/library/movies/\(id)" }
    static func removeMovie(_ id: Int) -> String { "/library/movies/\(id)/remove" }

    static func removeConfirmation(_ id: Int, returnTo: String) -> String {
        "/library/movies/\(id)/remove?return_to=\(query(returnTo))"
    }

    static func note(_ id: Int, returnTo: String) -> String { "/movies/\(id)/note?return_to=\(query(returnTo))" }

    static func library(_ list: LibraryList, page: Int = 1, kind: MediaKind? = nil) -> String {
        var path = "/library?list=\(list.rawValue)"
        if let kind { path += "&kind=\(kind.rawValue)" }
        if page > 1 { path += "&page=\(page)" }
        return path
    }

    static let signUp = "/account/signup"
    static let signIn = "/account/signin"
    static let signOut = "/account/signout"
    static let account = "/account"
    static let accountPassword = "/account/password"
    static let accountDelete = "/account/delete"
    static let accountTokens = "/account/tokens"
    static let apiDocs = "/api/openapi.yaml"
    static func revokeToken(_ id: UUID) -> String { "/account/tokens/\(id.uuidString.lowercased())/revoke" }

    static let adminOffers = "/admin/offers"
    static let adminNewOffer = "/admin/offers/new"
    static let adminNewAdvertiser = "/admin/advertisers/new"
    static let adminAdvertisers = "/admin/advertisers"
    static func adminOffer(_ id: Int) -> String { "/admin/offers/\(id)" }
    static func adminAdvertiser(_ id: Int) -> String { "/admin/advertisers/\(id)" }
    /// `/admin/offers/7/report?from=…&to=…`; `csv` for the download.
    static func adminReport(_ base: String, range: ReportRange, csv: Bool = false) -> String {
        "\(base)/report\(csv ? ".csv" : "")?from=\(range.from)&to=\(range.to)"
    }

    static func offerGo(_ id: Int, title: TitleRef?) -> String {
        "/offers/\(id)/go" + (title.map { "?title=\($0)" } ?? "")
    }
    static func offerImage(_ id: UUID) -> String { "/offers/images/\(id.uuidString.lowercased())" }
    static let offerPlaceholder = "/static/icon.svg"

    static func poster(source: String?, seed: Int, title: String) -> String {
        var path = "/posters?seed=\(seed)&title=\(query(String(title.prefix(80))))"
        if let source { path += "&src=\(query(source))" }
        return path
    }

    /// Percent-encodes everything but ASCII letters, digits and `-._~/` (UTF-8 based; Foundation's
    /// CharacterSet version was a measurable part of rendering a list page).
    static func query(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A `return_to` target must be a path on this site: never another host (no open redirect).
    static func safeReturnPath(_ raw: String?, fallback: String) -> String {
        guard let raw, raw.count <= 512, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.hasPrefix("/\\"),
              !raw.contains(where: { $0.isNewline || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true })
        else { return fallback }
        return raw
    }
}
