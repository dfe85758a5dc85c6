import Foundation

/// Films that exist but that iTunes does not sell (older films often are not there): OMDb knows
/// them by their IMDb id, and an import keeps them with what OMDb says, so their ratings, watches
/// and lists land like any other film's.
///
/// A kept film's id is made from its IMDb number, `keptIDBase + 133093` for `tt0133093`: iTunes
/// track ids are 32-bit numbers, far below that base, so the two never meet, and a kept film goes
/// through every page, link and API route that takes a film's id (the API's ids stop at
/// 99,999,999,999, above every IMDb number). The film itself is stored once for everyone in the
/// catalogue's store under `kept:movie:<IMDb id>`: it is a fact about the film, not a person's.
public struct KeptFilms: Sendable {
    public static let keptIDBase = 90_000_000_000

    let store: any CatalogCacheStore
    let clock: any AppClock

    /// The id a film with this IMDb id is kept under; nil for an id whose number does not read
    /// back as the same id (`tt133093`: IMDb writes at least seven digits).
    public static func id(imdb: String) -> Int? {
        guard OMDbClient.isIMDbID(imdb), let number = Int(imdb.dropFirst(2)), number > 0, number < 100_000_000 else { return nil }
        return imdbID(number) == imdb ? keptIDBase + number : nil
    }

    /// The IMDb id of a kept film's id; nil for an iTunes id.
    public static func imdbID(of id: Int) -> String? {
        guard id > keptIDBase, id < keptIDBase + 100_000_000 else { return nil }
        return imdbID(id - keptIDBase)
    }

    private static func imdbID(_ number: Int) -> String {
        let digits = String(number)
        return "tt" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// The film as OMDb describes it, under its kept id (no artwork: OMDb's posters are on a host
    /// the poster proxy does not fetch from, so the generated poster stands in).
    static func film(_ details: OMDbDetails) -> Movie? {
        guard let id = id(imdb: details.imdbID) else { return nil }
        let released = details.released.flatMap(Self.released) ?? details.startYear.flatMap(Calendar.newYear)
        let runtime = details.runtime.flatMap { Int($0.split(separator: " ").first ?? "") }
        let genre = details.genre?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
        return Movie(
            id: id, title: details.title, director: details.director, genre: genre, releaseDate: released, synopsis: details.plot,
            contentRating: details.rated, runtimeMinutes: runtime)
    }

    /// OMDb's "31 Mar 1999".
    private static func released(_ text: String) -> Date? {
        let strategy = Date.ParseStrategy(
            format: "\(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits)", locale: Locale(identifier: "en_US_POSIX"),
            timeZone: TimeZone(identifier: "UTC")!)
        return try? Date(text, strategy: strategy)
    }

    private static func key(_ imdb: String) -> String { "kept:movie:\(imdb)" }

    /// Keeps the film for everyone who imports it (replacing an older copy).
    func keep(_ film: Movie) async throws {
        guard let imdb = Self.imdbID(of: film.id) else { return }
        try await store.write(Self.key(imdb), CachedBody(body: try JSONEncoder().encode(film), fetchedAt: clock.now()))
    }

    /// The kept film with this id, if an import kept it.
    func film(id: Int) async throws -> Movie? {
        guard let imdb = Self.imdbID(of: id), let stored = try await store.read(Self.key(imdb)),
            let film = try? JSONDecoder().decode(Movie.self, from: stored.body), film.id == id
        else { return nil }
        return film
    }
}
