import Foundation
import Synchronization

/// What OMDb adds to an iTunes film: the Movie Collection spec's director and plot, plus the IMDb
/// rating, runtime, cast and link. Every field but `imdbID` and `title` may be absent (OMDb's "N/A").
public struct OMDbDetails: Codable, Sendable, Hashable {
    public var imdbID: String
    public var title: String
    /// As OMDb writes it: "2002", or for series "2008–2013" / "2019–" (with an en dash).
    public var year: String?
    public var rated: String?
    public var released: String?
    public var runtime: String?
    public var genre: String?
    public var director: String?
    public var writer: String?
    public var actors: String?
    public var plot: String?
    public var posterURL: String?
    public var imdbRating: String?
    public var imdbVotes: String?
    public var type: String?

    public var imdbURL: String { "https://www.imdb.com/title/\(imdbID)/" }

    /// The first year of `year`: "2008–2013" → 2008.
    public var startYear: Int? { year.flatMap { OMDbYears.parse($0)?.start } }
    /// The last year of a finished series: "2008–2013" → 2013; nil for a single year or a running series.
    public var endYear: Int? { year.flatMap { OMDbYears.parse($0)?.end } }
}

enum OMDbYears {
    /// "2002" → (2002, nil); "2008–2013" → (2008, 2013); "2019–" → (2019, nil). En dash, hyphen or em dash.
    static func parse(_ text: String) -> (start: Int, end: Int?)? {
        let parts = text.split(whereSeparator: { $0 == "–" || $0 == "-" || $0 == "—" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, first.count == 4, let start = Int(first) else { return nil }
        let end = parts.count > 1 ? Int(parts[1]) : nil
        return (start, end)
    }
}

/// An OMDb answer, decided by its `Response` field, never by the HTTP status (OMDb says
/// "not found" with a 200 and key or limit errors with a 401, both as `Response: "False"`).
public enum OMDbAnswer: Sendable, Equatable {
    case found(OMDbDetails)
    /// OMDb looked and has no such title ("Movie not found!", "Error getting data.", "Incorrect IMDb ID.").
    case notFound(String)
    /// OMDb refused to answer ("Invalid API key!", "Request limit reached!", …).
    case refused(String)
}

enum OMDbDecoder {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    static let notFoundErrors: Set<String> = ["Movie not found!", "Series not found!", "Error getting data.", "Incorrect IMDb ID."]

    static func decode(_ body: Data) throws -> OMDbAnswer {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Malformed(description: "OMDb answer is not a JSON object")
        }
        func field(_ name: String) -> String? {
            guard let value = object[name] as? String else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty || trimmed == "N/A" ? nil : trimmed
        }
        switch (object["Response"] as? String)?.lowercased() {
        case "true":
            guard let imdbID = field("imdbID"), let title = field("Title") else {
                throw Malformed(description: "OMDb answer without imdbID or Title")
            }
            return .found(
                OMDbDetails(
                    imdbID: imdbID, title: title, year: field("Year"), rated: field("Rated"), released: field("Released"),
                    runtime: field("Runtime"), genre: field("Genre"), director: field("Director"), writer: field("Writer"),
                    actors: field("Actors"), plot: field("Plot"), posterURL: field("Poster").flatMap(SafeURL.http),
                    imdbRating: field("imdbRating"), imdbVotes: field("imdbVotes"), type: field("Type")
                ))
        case "false":
            let error = field("Error") ?? "OMDb gave no reason"
            return notFoundErrors.contains(error) ? .notFound(error) : .refused(error)
        default:
            throw Malformed(description: "OMDb answer without Response")
        }
    }
}

/// How an OMDb lookup went, as a page or the API reports it.
public enum OMDbStatus: Sendable, Equatable {
    /// No `OMDB_API_KEY`: everything comes from iTunes.
    case disabled
    case found(OMDbDetails, CatalogSource)
    case notFound
    /// OMDb refused, failed or could not be reached, and nothing was cached.
    case failed(UpstreamError)
    /// Today's 1,000 calls are spent.
    case limitReached

    public var details: OMDbDetails? { if case .found(let details, _) = self { details } else { nil } }
}

/// OMDb through the cache engine: films are kept 7 days, "not found" 1 day, calls are counted per
/// day and stop at the free key's limit. `t=` (title and year) finds a film the first time; its
/// IMDb id is then kept for that iTunes film, and later lookups ask for exactly it with `i=`.
public final class OMDbClient: Sendable {
    public static let foundFreshness: TimeInterval = 7 * 24 * 3600
    public static let notFoundFreshness: TimeInterval = 24 * 3600
    public static let dailyLimit = 1000

    let upstream: CachedUpstream
    let store: any CatalogCacheStore
    let apiKey: String?
    let baseURL: String
    let budget: any CallBudget
    /// This server has kept a refusal of the key for the administrator (`keyRefusal`).
    private let refusalKept = Atomic<Bool>(false)
    static let refusalKey = "notice:omdb-key-refused"

    public init(upstream: CachedUpstream, store: any CatalogCacheStore, apiKey: String?, baseURL: String, budget: any CallBudget) {
        self.upstream = upstream
        self.store = store
        self.apiKey = apiKey
        self.baseURL = baseURL
        self.budget = budget
    }

    /// Details for an iTunes film: by its known IMDb id; else by title and release year, then by
    /// title alone (iTunes dates a film by its US release, OMDb by its premiere: they can be a year
    /// apart), accepting a film at most a year away.
    public func details(for movie: Movie) async -> OMDbStatus {
        guard let apiKey else { return .disabled }
        if let imdb = KeptFilms.imdbID(of: movie.id) { return await lookup(apiKey, key: idKey(imdb), query: "i=\(imdb)").status }
        let known = (try? await store.read(imdbKey(movie.id))).map { String(decoding: $0.body, as: UTF8.self) }
        if let known, Self.isIMDbID(known) {
            return await lookup(apiKey, key: idKey(known), query: "i=\(known)").status
        }
        let title = "t=\(PercentEncoding.query(movie.title))"
        let titleKey = "omdb:t:\(movie.title.lowercased()):"
        var answer = await lookup(apiKey, key: titleKey + (movie.year.map(String.init) ?? ""), query: title + (movie.year.map { "&y=\($0)" } ?? ""))
        if answer.status == .notFound, let year = movie.year {
            answer = await lookup(apiKey, key: titleKey, query: title)
            if let found = answer.status.details?.startYear, abs(found - year) > 1 { return .notFound }
        }
        if case .found(let details, _) = answer.status, let body = answer.body {
            // Later lookups ask for exactly this film (`i=`), and find this answer already cached under its id.
            try? await store.write(imdbKey(movie.id), CachedBody(body: Data(details.imdbID.utf8), fetchedAt: body.fetchedAt))
            try? await store.write(idKey(details.imdbID), body)
        }
        return answer.status
    }

    /// Details for an IMDb id (an import's row): the title and year to look for on iTunes.
    public func details(imdbID: String) async -> OMDbStatus {
        guard let apiKey else { return .disabled }
        guard Self.isIMDbID(imdbID) else { return .notFound }
        return await lookup(apiKey, key: idKey(imdbID), query: "i=\(imdbID)").status
    }

    private func lookup(_ apiKey: String, key: String, query: String) async -> (status: OMDbStatus, body: CachedBody?) {
        let url = URL(string: "\(baseURL)/?apikey=\(PercentEncoding.query(apiKey))&\(query)")!
        let policy = FetchPolicy(
            freshness: { body in
                if case .found = try? OMDbDecoder.decode(body) { return Self.foundFreshness }
                return Self.notFoundFreshness
            },
            bodyStatuses: [401], budget: budget
        )
        let fetched = await upstream.fetch(key: key, url: url, policy: policy) { body in
            if case .refused(let message) = try OMDbDecoder.decode(body) { throw UpstreamRefusal(message) }
        }
        if let answer = fetched.answer {
            if case .fresh = fetched, refusalKept.exchange(false, ordering: .relaxed) {
                try? await store.write(Self.refusalKey, CachedBody(body: Data(), fetchedAt: answer.body.fetchedAt))
            }
            return (status(answer.body, source: answer.source), answer.body)
        }
        if case .failed(.refused(let message)) = fetched, Self.refusesTheKey(message), !refusalKept.exchange(true, ordering: .relaxed) {
            try? await store.write(Self.refusalKey, CachedBody(body: Data(message.utf8), fetchedAt: upstream.clock.now()))
        }
        if case .failed(let error) = fetched, error != .quotaExhausted { return (.failed(error), nil) }
        return (.limitReached, nil)
    }

    /// OMDb's answer about the key itself ("Invalid API key!", "No API key provided.", "Request
    /// limit reached!"), not about a film.
    static func refusesTheKey(_ message: String) -> Bool {
        message.localizedCaseInsensitiveContains("API key") || message.localizedCaseInsensitiveContains("limit")
    }

    /// OMDb's last refusal of the key and when, for the administrator's page (nil once OMDb
    /// answers again): searches go on without its details meanwhile.
    public func keyRefusal() async -> (message: String, at: Date)? {
        guard apiKey != nil, let kept = try? await store.read(Self.refusalKey), !kept.body.isEmpty else { return nil }
        return (String(decoding: kept.body, as: UTF8.self), kept.fetchedAt)
    }

    private func status(_ body: CachedBody, source: CatalogSource) -> OMDbStatus {
        if case .found(let details) = try? OMDbDecoder.decode(body.body) { return .found(details, source) }
        return .notFound
    }

    private func imdbKey(_ itunesID: Int) -> String { "omdb:imdb-id-of-itunes:\(itunesID)" }
    private func idKey(_ imdbID: String) -> String { "omdb:i:\(imdbID)" }

    static func isIMDbID(_ text: String) -> Bool {
        text.count >= 3 && text.count <= 12 && text.hasPrefix("tt") && text.dropFirst(2).allSatisfy(\.isASCIIDigit)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
