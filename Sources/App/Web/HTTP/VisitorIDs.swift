import Crypto
import Foundation

/// The ids in the `ps_visitor` cookie, who partner offers are counted and capped for: `<id>.<mac>`,
/// 22 characters of id, a full stop and 22 of HMAC-SHA256 under the deployment's visitor key
/// (`DeploymentKeys`). Only an id this deployment signed is a visitor: a made-up value (any
/// well-formed 43 characters used to be a new visitor, so one address could count 50 clicks) is
/// taken for no cookie at all, and the browser is given its signed id again.
struct VisitorIDs: Sendable {
    static let length = 45
    let keys: DeploymentKeys

    /// The cookie value for a browser without a signed id. It is derived from the address, keyed, so
    /// a client that keeps no cookies stays one visitor however often it asks (and on every server).
    func issue(address: String) async throws -> String {
        let key = try await keys.key(DeploymentKeys.visitors)
        return Self.cookieValue(id: Self.code("first-visit|" + address, key), key: key)
    }

    /// `<id>.<mac>` for an id of 22 URL-safe characters.
    static func cookieValue(id: String, key: SymmetricKey) -> String { id + "." + code("visitor|" + id, key) }

    /// The id inside `raw` when this deployment signed it; nil for anything else.
    func verified(_ raw: String) async throws -> String? {
        guard raw.utf8.count == Self.length else { return nil }
        let parts = raw.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 22 else { return nil }
        let key = try await keys.key(DeploymentKeys.visitors)
        return ConstantTime.equal(parts[1], Self.code("visitor|" + parts[0], key)) ? String(parts[0]) : nil
    }

    /// A client address as stored with impressions and clicks (for the per-address caps): keyed, so
    /// the stored value does not give the address back.
    func addressKey(_ address: String) async throws -> String {
        Self.code("address|" + address, try await keys.key(DeploymentKeys.visitors))
    }

    /// 22 URL-safe characters: the first 16 bytes of the message's HMAC-SHA256.
    private static func code(_ message: String, _ key: SymmetricKey) -> String {
        RandomToken.base64URL(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key).prefix(16))
    }
}
