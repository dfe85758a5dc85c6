import Foundation
import SQLKit

/// A title an import row might be: shown in the Needs-a-match queue for the person to choose.
public struct TitleCandidate: Codable, Sendable, Equatable {
    public var kind: MediaKind
    public var id: Int
    public var title: String
    public var year: Int?
}

/// What a row's title came to.
enum MatchOutcome: Sendable, Equatable {
    /// Found: the title, and how it was found (shown in the report).
    case found(MatchedTitle, how: String)
    /// Not found for sure: what came closest (perhaps nothing); the row waits for the person.
    case unsure([TitleCandidate], reason: String)
    /// A film OMDb knows by the row's IMDb id that iTunes does not have: kept under its IMDb id
    /// with what OMDb says of it (`KeptFilms`), and landed like any other film.
    case notInCatalogue(Movie, reason: String)
    /// The upstream allowance is spent for now (or the upstream refused): ask again after this wait.
    case wait(seconds: Int, reason: String)
}

/// Finds the catalogue's film or show for an import row, and remembers every answer in
/// `import_matches` (shared by every server and every person), so a second import of the same
/// file asks no upstream at all.
///
/// Films: an IMDb id is turned into a title and year by OMDb (when a key is set); then iTunes'
/// title search, the exact title in the same year first, then a year either way; a title without
/// a year is taken only when exactly one film has it. The original title is tried when the
/// title finds nothing. Shows: TVMaze's lookup by the row's IMDb id, then by its TheTVDB id; then
/// its name search, the show with the row's IMDb id first, then the exact name in the year it
/// premiered (a year either way), then a lone exact name.
struct TitleMatcher: Sendable {
    static let candidateLimit = 5
    static let waitAfterRefusal = 20

    let search: SearchService
    let shows: ShowCatalog
    let omdb: OMDbClient
    let kept: KeptFilms
    let database: AppDatabase
    let clock: any AppClock

    /// An answer not found for sure is asked again after a day (the catalogue grows; the upstream
    /// may have been down).
    static let unsureFreshness: TimeInterval = 86_400

    /// The cache keys: by IMDb id (only answers an upstream confirmed for that id are kept there:
    /// OMDb, or TVMaze's own IMDb id of a show), and by the row's title, year and ids.
    static func keys(_ row: ImportRow) -> (id: String?, title: String) {
        let kind = (row.kind ?? .movie).rawValue
        let id = row.imdbID.flatMap { OMDbClient.isIMDbID($0) ? "\(kind):imdb:\($0)" : nil }
        let folded = String(SearchQuery.fold(row.title).lowercased().prefix(300))
        // TheTVDB's id tells apart shows of one name (TV Time's rows have no year).
        let tvdb = row.tvdbID.map { ":tvdb\($0)" } ?? ""
        return (id, "\(kind):title:\(folded):\(row.year.map(String.init) ?? ""):\(row.imdbID ?? "")\(tvdb)")
    }

    /// A person's own choices are theirs alone: another person's upload cannot decide them.
    static func personal(_ key: String, _ profile: UUID) -> String { "you:\(profile.uuidString):\(key)" }

    func resolve(_ row: ImportRow, profile: UUID) async throws -> MatchOutcome {
        let keys = Self.keys(row)
        if let chosen = try await cached(Self.personal(keys.title, profile)) { return chosen }
        if let id = keys.id, let cached = try await cached(id) { return cached }
        if let cached = try await cached(keys.title) { return cached }
        let (answer, confirmed) = row.kind == .show ? await show(row) : await movie(row)
        let key = confirmed ? keys.id ?? keys.title : keys.title
        switch answer {
        case .wait: break
        case .found(let title, let how): try await remember(key, kind: title.kind, title: title, how: how, candidates: [])
        case .unsure(let candidates, let reason): try await remember(key, kind: row.kind ?? .movie, title: nil, how: reason, candidates: candidates)
        case .notInCatalogue(let film, let reason):
            try await kept.keep(film)
            try await remember(key, kind: .movie, title: .movie(film), how: Self.notInCatalogue + reason, candidates: [])
        }
        return answer
    }

    /// A person's choice for a row: their later rows (and imports) with the same title take it too.
    func choose(_ row: ImportRow, profile: UUID, title: MatchedTitle) async throws {
        try await remember(Self.personal(Self.keys(row).title, profile), kind: title.kind, title: title, how: Self.chosen, candidates: [])
    }

    /// Films and shows for a search a person typed to choose a title (Needs a match, Needs review).
    func candidates(for text: String) async -> [TitleCandidate] {
        guard let query = try? SearchQuery(text) else { return [] }
        async let shows = shows.find(query.text)
        var found: [TitleCandidate] = []
        if case .success(let (films, _)) = await search.films(query) {
            found += SearchService.ranked(films, for: query).prefix(8).map { TitleCandidate(kind: .movie, id: $0.id, title: $0.title, year: $0.year) }
        }
        if case .success(let result) = await shows {
            found += result.shows.prefix(4).map { TitleCandidate(kind: .show, id: $0.id, title: $0.name, year: $0.premieredYear) }
        }
        return found
    }

    static let chosen = "chosen by you"
    /// Marks a kept resolution in `import_matches.how`.
    static let notInCatalogue = "not in the catalogue: "

    /// The answer, and whether an upstream confirmed it for the row's IMDb id.
    private func movie(_ row: ImportRow) async -> (MatchOutcome, confirmed: Bool) {
        var title = row.title
        var year = row.year
        var via = ""
        var known: OMDbDetails?
        if let imdb = row.imdbID, case .found(let details, _) = await omdb.details(imdbID: imdb) {
            known = details
            title = details.title
            year = details.startYear ?? year
            via = "IMDb id via OMDb, then "
        }
        var candidates: [TitleCandidate] = []
        // PopcornSwirl's own catalogue first: a film any year list, search or import brought in
        // needs no iTunes call (a few hundred rows never wait on its per-minute allowance).
        for name in [title, row.originalTitle].compactMap({ $0 }) where !name.isEmpty {
            let films = (try? await search.index.movies(matching: name)) ?? []
            let found = films.map { TitleCandidate(kind: .movie, id: $0.id, title: $0.title, year: $0.year) }
            if let pick = Self.pick(found, title: name, year: year), pick.how != Self.onlyOne, let film = films.first(where: { $0.id == pick.0.id }) {
                return (.found(.movie(film), how: via + Self.inCatalogue(pick.how)), !via.isEmpty)
            }
        }
        for name in [title, row.originalTitle].compactMap({ $0 }) where !name.isEmpty {
            guard let query = try? SearchQuery(name) else { continue }
            switch await search.films(query) {
            case .failure(let error): return (Self.refused(error, "iTunes"), false)
            case .success(let (films, _)):
                let found = films.map { TitleCandidate(kind: .movie, id: $0.id, title: $0.title, year: $0.year) }
                if let pick = Self.pick(found, title: name, year: year), let film = films.first(where: { $0.id == pick.0.id }) {
                    return (.found(.movie(film), how: via + pick.how), !via.isEmpty)
                }
                candidates += found.filter { found in !candidates.contains(found) }
            }
        }
        if let known, let film = KeptFilms.film(known) {
            let reason = "Not on iTunes: kept with its IMDb id \(known.imdbID), as OMDb knows it: “\(title)”\(year.map { " (\($0))" } ?? "")."
            return (.notInCatalogue(film, reason: reason), true)
        }
        return (.unsure(Array(candidates.prefix(Self.candidateLimit)), reason: Self.noMatch(title, year, on: "iTunes")), false)
    }

    private func show(_ row: ImportRow) async -> (MatchOutcome, confirmed: Bool) {
        // TVMaze's own answer for the row's IMDb or TheTVDB id, before any name.
        let ids: [(ShowCatalog.ExternalID?, String)] = [
            (row.imdbID.map { .imdb($0) }, "IMDb id on TVMaze"), (row.tvdbID.map { .thetvdb($0) }, "TheTVDB id on TVMaze"),
        ]
        for case (let id?, let how) in ids {
            switch await shows.lookup(id) {
            case .failure(let error): return (Self.refused(error, "TVMaze"), false)
            case .success(let show?): return (.found(.show(show), how: how), id == row.imdbID.map { .imdb($0) })
            case .success(nil): continue
            }
        }
        guard !row.title.isEmpty else { return (.unsure([], reason: "The row has no name to look for."), false) }
        // PopcornSwirl's own catalogue first, as for films.
        let indexed = (try? await search.index.shows(matching: row.title)) ?? []
        if let imdb = row.imdbID, let show = indexed.first(where: { $0.imdbID == imdb }) {
            return (.found(.show(show), how: "IMDb id in PopcornSwirl’s catalogue"), true)
        }
        let known = indexed.map { TitleCandidate(kind: .show, id: $0.id, title: $0.name, year: $0.premieredYear) }
        if row.imdbID == nil, row.tvdbID == nil, let pick = Self.pick(known, title: row.title, year: row.year), pick.how != Self.onlyOne,
            let show = indexed.first(where: { $0.id == pick.0.id })
        {
            return (.found(.show(show), how: Self.inCatalogue(pick.how)), false)
        }
        switch await shows.find(row.title) {
        case .failure(let error): return (Self.refused(error, "TVMaze"), false)
        case .success(let result):
            if let imdb = row.imdbID, let show = result.shows.first(where: { $0.imdbID == imdb }) {
                return (.found(.show(show), how: "IMDb id in TVMaze's search"), true)
            }
            let found = result.shows.map { TitleCandidate(kind: .show, id: $0.id, title: $0.name, year: $0.premieredYear) }
            if let pick = Self.pick(found, title: row.title, year: row.year), let show = result.shows.first(where: { $0.id == pick.0.id }) {
                return (.found(.show(show), how: pick.how.replacingOccurrences(of: "iTunes", with: "TVMaze")), false)
            }
            return (.unsure(Array(found.prefix(Self.candidateLimit)), reason: Self.noMatch(row.title, row.year, on: "TVMaze")), false)
        }
    }

    /// The exact title (case and accents aside) in the same year, else a year either way, else the
    /// only one with that title when the row has no year.
    static func pick(_ found: [TitleCandidate], title: String, year: Int?) -> (TitleCandidate, how: String)? {
        let wanted = SearchQuery.fold(title).lowercased()
        let exact = found.filter { SearchQuery.fold($0.title).lowercased() == wanted }
        guard let year else { return exact.count == 1 ? (exact[0], onlyOne) : nil }
        if let same = exact.first(where: { $0.year == year }) { return (same, "title and year on iTunes") }
        if let near = exact.first(where: { $0.year.map { abs($0 - year) <= 1 } ?? false }) { return (near, "title, a year apart, on iTunes") }
        return nil
    }

    /// A lone title without a year: trusted from iTunes' own search, not from the local catalogue
    /// (which holds only what PopcornSwirl happened to receive).
    static let onlyOne = "title (the only one) on iTunes"

    static func inCatalogue(_ how: String) -> String { how.replacingOccurrences(of: "on iTunes", with: "in PopcornSwirl’s catalogue") }

    static func noMatch(_ title: String, _ year: Int?, on upstream: String) -> String {
        "\(upstream) has no \(upstream == "TVMaze" ? "show" : "film") called “\(title)”\(year.map { " from about \($0)" } ?? "")."
    }

    /// A refusal for the moment (the allowance, the host down, a server error) makes the job wait;
    /// one about this title (a 4xx, an answer that is not one) puts the row in Needs a match.
    static func refused(_ error: UpstreamError, _ upstream: String) -> MatchOutcome {
        switch error {
        case .overShare(_, let retryAfter):
            return .wait(seconds: max(1, retryAfter), reason: "Waiting for your share of \(upstream)’s allowance of calls.")
        case .throttled, .rateLimited, .quotaExhausted:
            return .wait(seconds: waitAfterRefusal, reason: "Waiting for \(upstream)’s allowance of calls.")
        case .badStatus(let status) where status < 500:
            return .unsure([], reason: "\(upstream) refused the search for this title (status \(status)).")
        case .malformed, .refused:
            return .unsure([], reason: "\(upstream)’s answer for this title could not be read.")
        default:
            return .wait(seconds: waitAfterRefusal, reason: "\(upstream) did not answer properly; asking again shortly.")
        }
    }

    private func cached(_ key: String) async throws -> MatchOutcome? {
        let row = try await database.sql.select().columns("media_kind", "how", "snapshot", "candidates", "resolved_at").from("import_matches")
            .where("match_key", .equal, SQLBind(key)).first()
        guard let row else { return nil }
        let how = try row.decode(column: "how", as: String.self)
        let resolvedAt = try row.decode(column: "resolved_at", as: Date.self)
        let kind = MediaKind(rawValue: try row.decode(column: "media_kind", as: String.self)) ?? .movie
        if how.hasPrefix(Self.notInCatalogue) {
            // A kept film whose copy no longer decodes is asked for again.
            guard let snapshot = try row.decode(column: "snapshot", as: String?.self),
                case .movie(let film) = MatchedTitle(kind: .movie, snapshot: Data(snapshot.utf8))
            else { return nil }
            return .notInCatalogue(film, reason: String(how.dropFirst(Self.notInCatalogue.count)))
        }
        if let snapshot = try row.decode(column: "snapshot", as: String?.self) {
            // A snapshot that no longer decodes is asked for again.
            return MatchedTitle(kind: kind, snapshot: Data(snapshot.utf8)).map { .found($0, how: how) }
        }
        let candidates = try row.decode(column: "candidates", as: String?.self).flatMap {
            try? JSONDecoder().decode([TitleCandidate].self, from: Data($0.utf8))
        }
        guard clock.now().timeIntervalSince(resolvedAt) < Self.unsureFreshness else { return nil }
        return .unsure(candidates ?? [], reason: how)
    }

    private func remember(_ key: String, kind: MediaKind, title: MatchedTitle?, how: String, candidates: [TitleCandidate]) async throws {
        let json = candidates.isEmpty ? nil : String(decoding: try JSONEncoder().encode(candidates), as: UTF8.self)
        let snapshot = try title.map { String(decoding: try $0.snapshot(), as: UTF8.self) }
        let now = clock.now()
        try await database.writeSQL { sql in
            try await sql.insert(into: "import_matches")
                .columns("match_key", "media_kind", "item_id", "title", "how", "snapshot", "candidates", "resolved_at")
                .values(
                    SQLBind(key), SQLBind(kind.rawValue), SQLBind(title.map { String($0.id) }), SQLBind(title?.name), SQLBind(how),
                    SQLBind(snapshot), SQLBind(json), SQLBind(now)
                )
                .onConflict(with: ["match_key"]) { conflict in
                    conflict.set(excludedValueOf: "media_kind").set(excludedValueOf: "item_id").set(excludedValueOf: "title")
                        .set(excludedValueOf: "how").set(excludedValueOf: "snapshot").set(excludedValueOf: "candidates")
                        .set(excludedValueOf: "resolved_at")
                }
                .run()
        }
    }
}
