import FluentKit
import Foundation

/// An account's sessions as its owner sees them on the account page: one per device signed in.
extension SessionService {
    public struct Active: Sendable, Equatable {
        /// Names the session in forms: the first 16 hex digits of its hash (never the hash itself,
        /// and never the token). Unique enough within one account's sessions.
        public let handle: String
        /// The browser's label; nil when unknown (sessions from before labels, or none was sent).
        public let device: String?
        public let createdAt: Date
        public let lastSeenAt: Date
        public let remember: Bool
        /// The session of the request asking.
        public let isCurrent: Bool
    }

    static let handleLength = 16

    /// The profile's live sessions, the current one first, then the most recently seen.
    func active(profile: UUID, current token: String?) async throws -> [Active] {
        let now = clock.now()
        let current = token.map(Self.hash)
        let rows = try await SessionModel.query(on: database.db).filter(\.$profileID == profile).all()
        return rows.filter { now.timeIntervalSince($0.lastSeenAt) <= idleTimeout && $0.expiresAt.map { now < $0 } ?? true }
            .map { row in
                Active(
                    handle: String(row.id!.prefix(Self.handleLength)), device: row.device, createdAt: row.createdAt,
                    lastSeenAt: row.lastSeenAt, remember: row.remember, isCurrent: row.id == current
                )
            }
            .sorted { ($0.isCurrent ? 1 : 0, $0.lastSeenAt) > ($1.isCurrent ? 1 : 0, $1.lastSeenAt) }
    }

    /// Ends the profile's session with this handle; false when it has none (another's included).
    func end(profile: UUID, handle: String) async throws -> Bool {
        guard handle.count == Self.handleLength, handle.allSatisfy(\.isHexDigit) else { return false }
        let rows = try await SessionModel.query(on: database.db).filter(\.$profileID == profile).all()
        guard let key = rows.compactMap(\.id).first(where: { $0.hasPrefix(handle.lowercased()) }) else { return false }
        try await database.write { db in try await SessionModel.query(on: db).filter(\.$id == key).delete() }
        database.changes.publish(.session(key))
        return true
    }
}
