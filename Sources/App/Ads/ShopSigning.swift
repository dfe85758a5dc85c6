import Crypto
import Foundation
import SQLKit

/// HMAC-SHA256 signatures between PopcornSwirl and its partner shops, as the README documents them.
///
/// - A click-through's `ps_` parameters are signed: every `ps_` parameter but `ps_sig`, sorted by
///   name, written `name=value` (values decoded) and joined by a line feed. `ps_ts` (seconds since
///   1970) is among them, so a shop can refuse old links.
/// - A shop's order report is signed over `"<timestamp>.<body>"`: the `PopcornSwirl-Timestamp`
///   header, a full stop and the body's exact bytes.
/// Signatures are lower-case hex.
enum ShopSignature {
    static let prefix = "ps_"
    static let parameter = "ps_sig"
    /// How far a report's timestamp may be from the server's clock, either way.
    static let tolerance: TimeInterval = 5 * 60

    static func clickMessage(_ parameters: [(name: String, value: String)]) -> String {
        parameters.filter { $0.name.hasPrefix(prefix) && $0.name != parameter }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "\n")
    }

    static func orderMessage(timestamp: String, body: some Sequence<UInt8>) -> [UInt8] {
        Array("\(timestamp).".utf8) + Array(body)
    }

    static func sign(_ message: some Sequence<UInt8>, secret: String) -> String {
        Hex.string(HMAC<SHA256>.authenticationCode(for: Array(message), using: SymmetricKey(data: Data(secret.utf8))))
    }

    /// Whether `signature` (hex) is the message's under any of `secrets`, compared in constant time.
    static func isValid(_ signature: String, for message: [UInt8], secrets: [String]) -> Bool {
        guard let code = Hex.bytes(signature), code.count == SHA256.byteCount else { return false }
        return secrets.contains { HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: SymmetricKey(data: Data($0.utf8))) }
    }
}

/// Each shop's signing key (`shop_secrets`): made when the shop is, shown once, replaced on rotation.
/// After a rotation the previous key still verifies order reports for a day, so a shop can switch
/// without losing reports in flight; click-throughs are signed with the new key at once.
struct ShopSecrets: Sendable {
    static let previousKeptFor: TimeInterval = 24 * 60 * 60

    let database: AppDatabase
    let clock: any AppClock

    /// `pss_` + 43 base64url characters of 32 random bytes.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "pss_" + RandomToken.base64URL((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The key click-throughs to this shop are signed with (nil: a shop that has none, which the console offers to issue).
    func current(_ shop: Int) async throws -> String? {
        try await database.sql.raw("SELECT secret FROM shop_secrets WHERE advertiser_id = \(bind: shop)").first()?
            .decode(column: "secret", as: String.self)
    }

    /// The keys an order report from this shop may be signed with now.
    func verifying(_ shop: Int) async throws -> [String] {
        guard
            let row = try await database.sql.raw(
                "SELECT secret, previous_secret, previous_until FROM shop_secrets WHERE advertiser_id = \(bind: shop)"
            ).first()
        else { return [] }
        var keys = [try row.decode(column: "secret", as: String.self)]
        if let previous = try row.decode(column: "previous_secret", as: String?.self),
            let until = try row.decode(column: "previous_until", as: Date?.self), until > clock.now()
        {
            keys.append(previous)
        }
        return keys
    }

    /// A new key for the shop, returned once; the old one verifies reports for another day.
    func rotate(_ shop: Int) async throws -> String {
        let secret = Self.newSecret()
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.raw(
                """
                INSERT INTO shop_secrets (advertiser_id, secret, rotated_at) VALUES (\(bind: shop), \(bind: secret), \(bind: now))
                ON CONFLICT (advertiser_id) DO UPDATE SET previous_secret = shop_secrets.secret,
                previous_until = \(bind: now.addingTimeInterval(Self.previousKeptFor)), secret = excluded.secret, rotated_at = excluded.rotated_at
                """
            ).run()
        }
        return secret
    }

    /// When each shop's key was made or last rotated, for the console.
    func rotatedAt() async throws -> [Int: Date] {
        var out: [Int: Date] = [:]
        for row in try await database.sql.raw("SELECT advertiser_id, rotated_at FROM shop_secrets").all() {
            out[try row.decode(column: "advertiser_id", as: Int.self)] = try row.decode(column: "rotated_at", as: Date.self)
        }
        return out
    }
}

extension Hex {
    /// The bytes of an even-length hex string (either case); nil for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2), digits.count <= 256 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
