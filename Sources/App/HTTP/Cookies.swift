import Foundation
import HTTPTypes
import Hummingbird

/// Whether the browser reached us over HTTPS: always when `PUBLIC_URL` is an https address (TLS
/// ends in front of the app), otherwise only when a proxy listed in `TRUSTED_PROXIES` says so with
/// `X-Forwarded-Proto: https`. Anyone else's `X-Forwarded-Proto` is ignored.
struct Transport: Sendable {
    let publicHTTPS: Bool
    let trustedProxies: Set<String>

    init(config: AppConfig) {
        publicHTTPS = config.publicURL?.lowercased().hasPrefix("https://") == true
        trustedProxies = Set(config.trustedProxies)
    }

    func isSecure(_ request: Request, address: String?) -> Bool {
        if publicHTTPS { return true }
        guard let address, trustedProxies.contains(address),
            let proto = request.headers[HTTPField.Name("X-Forwarded-Proto")!]
        else { return false }
        // A chain of proxies lists the client's own hop first.
        return proto.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    /// The client's address: the connection's, or behind a trusted proxy the nearest address in
    /// `X-Forwarded-For` that is not itself a trusted proxy (read from the right: the left part is
    /// whatever the client chose to send). Throttles and counts are keyed on it.
    func clientAddress(_ request: Request, peer: String?) -> String? {
        guard let peer, trustedProxies.contains(peer) else { return peer }
        let hops = request.headers[values: HTTPField.Name("X-Forwarded-For")!].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return hop.isEmpty || hop.count > 45 ? peer : hop
        }
        return peer
    }
}

/// The browser cookies: HttpOnly and SameSite=Lax always; over HTTPS also Secure and named with the
/// `__Host-` prefix, so no subdomain or plain-HTTP page can set or overwrite them.
struct CookieJar: Sendable {
    static let session = SessionService.cookieName
    static let visitor = "ps_visitor"
    static let csrf = "ps_csrf"
    /// A visitor without a profile's last search (see the search page).
    static let lastSearch = "ps_last_search"
    /// A visitor without a profile's recent searches (kept in the cookie).
    static let recentSearches = "ps_recent_searches"
    /// What a form just did, said by the page it leads to (`app.js` shows it and clears it).
    static let done = "ps_done"

    var secure = false
    /// The request's cookies, parsed once by the first middleware (`SecurityHeadersMiddleware`).
    var received: ReceivedCookies?

    func name(_ base: String) -> String { secure ? "__Host-" + base : base }

    /// The cookie's value, read only under this transport's name (over HTTPS a plain `ps_…` cookie
    /// is ignored: anything could have set it).
    func value(_ base: String, in request: Request) -> String? {
        (received ?? ReceivedCookies(request))[name(base)]
    }

    /// `maxAge` nil: a browser-session cookie (no Max-Age or Expires), gone when the browser closes.
    func make(_ base: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name(base), value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func cleared(_ base: String) -> Cookie { make(base, "", maxAge: 0) }

    /// The confirmation of a form the server answers with a redirect: read by the next page's
    /// script (so not HttpOnly), for a minute at most. It holds the words only, never data.
    func done(_ text: String) -> Cookie {
        Cookie(
            name: name(Self.done), value: PercentEncoding.query(String(text.prefix(300))), maxAge: 60, path: "/", secure: secure,
            httpOnly: false, sameSite: .lax)
    }

    /// The session cookie: see `SessionService` for the lifetimes (`maxAge` nil without "remember
    /// me", what is left of the session's life with it, the idle timeout for a visitor).
    func session(_ token: String, maxAge: Int?) -> Cookie { make(Self.session, token, maxAge: maxAge) }
    var clearedSession: Cookie { cleared(Self.session) }
}

/// A request's `Cookie` headers as name and value pairs, split once. Hummingbird's `Cookies`
/// splits the header per request but parses a cookie again, attributes and all, on every read;
/// a page reads three (perf, the warm statistics page: 14 % of the server's CPU in cookie reads).
/// The first cookie of a name wins, as with `Cookies`.
struct ReceivedCookies: Sendable {
    private var pairs: [(name: Substring, value: Substring)] = []

    init(_ request: Request) {
        // Byte by byte: `Character` indexing (grapheme breaking) was most of the cost.
        for header in request.headers[values: .cookie] {
            let bytes = header.utf8
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
                let part = bytes[start..<end].drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                    pairs.append((Substring(part[..<equals]), Substring(part[bytes.index(after: equals)...])))
                }
                start = end == bytes.endIndex ? end : bytes.index(after: end)
            }
        }
    }

    subscript(name: String) -> String? {
        pairs.first { $0.name.utf8.elementsEqual(name.utf8) }.map { String($0.value) }
    }
}

extension Response {
    /// An answer any cache may keep and hand to anyone (a shared list's page): it must carry no
    /// cookie, or one visitor's cookie would be given to the next.
    var isPublic: Bool { headers.value(.cacheControl)?.hasPrefix("public") == true }
}

extension Response {
    /// A form's answer: on to `path`, with what the form did for that page to say (`CookieJar.done`).
    static func redirect(to path: String, done: String, _ context: AppRequestContext) -> Response {
        var response = Response.redirect(to: path, type: .normal)
        response.setCookie(context.cookies.done(done))
        return response
    }
}
