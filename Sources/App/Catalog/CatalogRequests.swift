import Foundation
import Logging
import SQLKit

/// What the catalogue worker is asked to fetch (`catalog_requests`, migration 028): films and
/// shows saved by id before PopcornSwirl had their details, and release years a person opened
/// before they were ever fetched. In the database, so any server's worker does what any server asked.
struct CatalogRequests: Sendable {
    enum Kind: String, Sendable {
        case movie
        case show
        case year
    }

    let database: AppDatabase
    let clock: any AppClock
    let logger: Logger

    /// Asks for `item` unless it is asked for already. A failure is logged: the page that asked
    /// still answers, and asks again on its next view.
    func ask(_ kind: Kind, _ item: String) async {
        let now = clock.now()
        do {
            try await database.writeSQL { sql in
                try await sql.raw(
                    """
                    INSERT INTO catalog_requests (media_kind, item, asked_at, next_try_at, attempts)
                    VALUES (\(bind: kind.rawValue), \(bind: item), \(bind: now), \(bind: now), 0)
                    ON CONFLICT (media_kind, item) DO NOTHING
                    """
                ).run()
            }
        } catch {
            logger.warning("asking the catalogue worker failed", metadata: ["kind": "\(kind.rawValue)", "item": "\(item)", "error": "\(error)"])
        }
    }

    /// Up to `limit` items of a kind whose time has come, oldest first.
    func due(_ kind: Kind, limit: Int) async throws -> [String] {
        try await database.sql.raw(
            """
            SELECT item FROM catalog_requests WHERE media_kind = \(bind: kind.rawValue) AND next_try_at <= \(bind: clock.now())
            ORDER BY asked_at, item LIMIT \(unsafeRaw: String(limit))
            """
        ).all().map { try $0.decode(column: "item", as: String.self) }
    }

    /// Every item of a kind asked for, due or not.
    func all(_ kind: Kind) async throws -> [String] {
        try await database.sql.raw("SELECT item FROM catalog_requests WHERE media_kind = \(bind: kind.rawValue)").all()
            .map { try $0.decode(column: "item", as: String.self) }
    }

    /// The answer is in: the requests go.
    func done(_ kind: Kind, _ items: [String]) async throws {
        guard !items.isEmpty else { return }
        try await database.writeSQL { sql in
            try await sql.raw(
                "DELETE FROM catalog_requests WHERE media_kind = \(bind: kind.rawValue) AND item IN (\(binds: items.map { $0 as any Encodable & Sendable }))"
            ).run()
        }
    }

    /// The upstream did not answer: asked again later, a minute after the first failure, doubling
    /// to an hour at most.
    func later(_ kind: Kind, _ items: [String]) async throws {
        guard !items.isEmpty else { return }
        let now = clock.now()
        try await database.writeSQL { sql in
            for item in items {
                let attempts =
                    try await sql.raw(
                        "SELECT attempts FROM catalog_requests WHERE media_kind = \(bind: kind.rawValue) AND item = \(bind: item)"
                    ).first()?.decode(column: "attempts", as: Int.self) ?? 0
                let wait = min(3600, 60 * pow(2, Double(min(attempts, 6))))
                try await sql.raw(
                    """
                    UPDATE catalog_requests SET attempts = \(bind: Int32(attempts + 1)), next_try_at = \(bind: now.addingTimeInterval(wait))
                    WHERE media_kind = \(bind: kind.rawValue) AND item = \(bind: item)
                    """
                ).run()
            }
        }
    }
}
