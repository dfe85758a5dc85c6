import Foundation
import SQLKit

/// Ratings of whole seasons (`season_ratings`): on a show's page, through the API, from Trakt.
extension EpisodeService {
    /// The person's ratings of the show's seasons, by season number.
    func seasonRatings(profile: UUID, showID: Int, on sql: (any SQLDatabase)? = nil) async throws -> [Int: Int] {
        struct Row: Decodable {
            var season: Int
            var rating: Int
        }
        let rows = try await (sql ?? database.sql).select().columns("season", "rating").from("season_ratings")
            .where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(showID)).all(decoding: Row.self)
        return Dictionary(rows.map { ($0.season, $0.rating) }, uniquingKeysWith: { a, _ in a })
    }

    /// Rates a season of the show 1–10, or clears its rating (nil). The season must be one the
    /// show's list holds; specials (season 0) are rated one by one.
    public func rateSeason(profile: UUID, show: Show, season: Int, rating: Int?) async throws(EpisodeError) {
        if let rating, !Rating.range.contains(rating) {
            throw .invalid(LibraryError.invalidRating(rating).message)
        }
        defer { database.changes.publish(.person(profile)) }
        let now = clock.now()
        do {
            try await database.write(serializedBy: "episodes|\(show.id)", within: profile.uuidString) { db in
                let sql = db as! any SQLDatabase
                guard season > 0, try await self.episodes(showID: show.id, on: sql).contains(where: { $0.season == season && !$0.isSpecial })
                else { throw EpisodeError.notFound }
                try await Self.setSeasonRating(rating, season: season, of: show.id, profile: profile, now: now, on: sql)
                try await self.touch(profile: profile, show: show, watchedAt: nil, on: sql)
            }
        } catch let error as EpisodeError {
            throw error
        } catch {
            throw .storageFailed
        }
    }

    static func setSeasonRating(_ rating: Int?, season: Int, of show: Int, profile: UUID, now: Date, on sql: any SQLDatabase) async throws {
        guard let rating else {
            try await sql.delete(from: "season_ratings").where("profile_id", .equal, SQLBind(profile)).where("show_id", .equal, SQLBind(show))
                .where("season", .equal, SQLBind(season)).run()
            return
        }
        try await sql.raw(
            """
            INSERT INTO season_ratings (profile_id, show_id, season, rating, updated_at) \
            VALUES (\(bind: profile), \(bind: show), \(bind: season), \(bind: rating), \(bind: now)) \
            ON CONFLICT (profile_id, show_id, season) DO UPDATE SET rating = \(bind: rating), updated_at = \(bind: now)
            """
        ).run()
    }
}
