import Hummingbird

/// The site's address as people reach it (`https://host`, no trailing slash), for links that
/// leave the site's pages: a calendar feed's address, the feed's links to episodes.
enum SiteAddress {
    /// `PUBLIC_URL` when set, else the scheme and the request's host (only a host name and port:
    /// the header comes from outside).
    static func of(publicURL: String?, request: Request, secure: Bool) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL }
        let authority = request.head.authority ?? "localhost"
        let safe = authority.count <= 255 && authority.allSatisfy { $0.isLetter || $0.isNumber || ".-:[]".contains($0) }
        return (secure ? "https://" : "http://") + (safe ? authority : "localhost")
    }
}
