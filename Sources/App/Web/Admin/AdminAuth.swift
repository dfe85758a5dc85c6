import Crypto
import Foundation
import Hummingbird

/// The console's credential: `ADMIN_TOKEN`, typed once into the login form. The cookie then holds an
/// expiry and an HMAC of it keyed by the token, so it survives restarts, works on every server,
/// and stops working when the token changes. Forms carry a CSRF token derived from the cookie.
struct AdminAuth: Sendable {
    static let cookieName = "ps_admin"
    static let lifetime: TimeInterval = 12 * 3600

    /// The HMAC key (a hash of the token) and the token's own hash, as bytes.
    let key: [UInt8]?
    let tokenDigest: [UInt8]?
    let clock: any AppClock

    init(token: String?, clock: any AppClock) {
        key = token.map { Array(SHA256.hash(data: Data("popcornswirl-admin|\($0)".utf8))) }
        tokenDigest = token.map { Array(SHA256.hash(data: Data($0.utf8))) }
        self.clock = clock
    }

    var isEnabled: Bool { key != nil }

    /// Constant-time comparison of digests, so timing tells nothing about the token.
    func accepts(token: String) -> Bool {
        guard let tokenDigest else { return false }
        return Self.constantTimeEqual(Array(SHA256.hash(data: Data(token.utf8))), tokenDigest)
    }

    func newCookieValue() -> String {
        let expiry = Int(clock.now().addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        return "\(expiry).\(mac("session|\(expiry)"))"
    }

    func isValid(cookie: String?) -> Bool {
        guard let cookie, key != nil else { return false }
        let parts = cookie.split(separator: ".")
        guard parts.count == 2, let expiry = Int(parts[0]), Double(expiry) > clock.now().timeIntervalSince1970 else { return false }
        return Self.constantTimeEqual(Array(parts[1].utf8), Array(mac("session|\(expiry)").utf8))
    }

    func csrfToken(cookie: String) -> String { mac("csrf|\(cookie)") }

    func isValid(csrf: String?, cookie: String) -> Bool {
        guard let csrf else { return false }
        return Self.constantTimeEqual(Array(csrf.utf8), Array(csrfToken(cookie: cookie).utf8))
    }

    /// `Authorization: Bearer <ADMIN_TOKEN>` for the admin API: nil when accepted, else 401 (none) or 403 (wrong).
    func apiRefusal(_ request: Request) -> HTTPResponse.Status? {
        guard isEnabled else { return .forbidden }
        // The scheme name is case-insensitive (RFC 9110).
        guard let header = request.headers[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else { return .unauthorized }
        return accepts(token: String(header.dropFirst(7))) ? nil : .forbidden
    }

    private func mac(_ message: String) -> String {
        guard let key else { return "" }
        return Hex.string(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: key)))
    }

    /// Equal bytes, in a time that depends only on the length.
    private static func constantTimeEqual(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
