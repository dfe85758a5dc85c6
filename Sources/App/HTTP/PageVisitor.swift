/// Who a page is drawn for: what its holes (its form token, its account link) are filled with for one request. Set on
/// the request's context by the visitor and CSRF middleware and handed to rendering as a value.
struct PageVisitor: Sendable {
    /// The browser's form token (nil outside the pages' group, and on a public page, which has no forms).
    var csrf: CSRFToken?
    /// The signed-in account's name, nil for a visitor: the header says who is signed in.
    var signedInAs: String?
}

/// A browser's form token, worked out when a page fills it in: a page without a form (a shared
/// list, say) never pays for the hash. The pages' CSRF middleware checks it.
struct CSRFToken: Sendable {
    let secret: String
    let accountSession: String?

    var value: String { Self.token(secret: secret, accountSession: accountSession) }

    static func token(secret: String, accountSession: String?) -> String {
        TextDigest.sha256("popcornswirl-csrf|", secret, "|", accountSession ?? "").withUnsafeBytes { RandomToken.base64URL($0) }
    }
}
