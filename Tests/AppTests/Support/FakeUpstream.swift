import Foundation
import Synchronization

@testable import App

/// An upstream that answers from a closure and counts calls per path, with an optional delay.
final class FakeUpstream: UpstreamHTTP {
    typealias Handler = @Sendable (URL) async throws(UpstreamError) -> UpstreamResponse
    private let handler: Mutex<Handler>
    private let counts = Mutex<[String: Int]>([:])
    private let delayNanos: Mutex<UInt64> = Mutex(0)
    private let urls = Mutex<[URL]>([])

    init(_ handler: @escaping Handler) {
        self.handler = Mutex(handler)
    }

    /// Serves the iTunes fixture files: `/search?term=YYYY…` → `itunes/year-YYYY.json`, `/lookup?id=N` from any of them.
    static func itunesFixtures() -> FakeUpstream {
        FakeUpstream { url throws(UpstreamError) in try Fixtures.itunesAnswer(for: url) }
    }

    func respond(_ handler: @escaping Handler) { self.handler.withLock { $0 = handler } }
    func setDelay(milliseconds: UInt64) { delayNanos.withLock { $0 = milliseconds * 1_000_000 } }
    func calls(_ path: String? = nil) -> Int {
        counts.withLock { table in path.map { table[$0] ?? 0 } ?? table.values.reduce(0, +) }
    }

    /// Every URL asked for, in order.
    func requested(host: String? = nil) -> [URL] {
        urls.withLock { all in host.map { host in all.filter { $0.host == host } } ?? all }
    }

    /// Answers one host from `handler` and everything else from the fixtures.
    func fail(host: String, _ handler: @escaping Handler) {
        respond { url throws(UpstreamError) in
            if url.host == host { return try await handler(url) }
            return try Fixtures.itunesAnswer(for: url)
        }
    }

    func get(_ url: URL, headers: [(String, String)]) async throws(UpstreamError) -> UpstreamResponse {
        counts.withLock { $0[url.path, default: 0] += 1 }
        urls.withLock { $0.append(url) }
        let delay = delayNanos.withLock { $0 }
        if delay > 0 { try? await Task.sleep(nanoseconds: delay) }
        let handler = self.handler.withLock { $0 }
        return try await handler(url)
    }
}

enum Fixtures {
    static func data(_ name: String) -> Data {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
        return try! Data(contentsOf: url)
    }

    /// A fixture file, or nil when there is none of that name.
    static func recorded(_ name: String) -> Data? {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures").flatMap { try? Data(contentsOf: $0) }
    }

    static func json(_ name: String) -> UpstreamResponse {
        UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: data(name))
    }

    static func itunesAnswer(for url: URL) throws(UpstreamError) -> UpstreamResponse {
        if url.host == "tvmaze.test" { return tvmazeAnswer(for: url) }
        if url.host == "omdb.test" { return omdbAnswer(for: url) }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        if url.path.hasSuffix("/search"), let term = value("term"), value("attribute") == nil {
            // A title search: films of `itunes/search.json` whose name contains the term, in the file's order.
            let object = try! JSONSerialization.jsonObject(with: data("itunes/search.json")) as! [String: Any]
            let wanted = term.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            let results = (object["results"] as! [[String: Any]]).filter {
                ($0["trackName"] as! String).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).contains(wanted)
            }
            let answer = try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
            return UpstreamResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: answer)
        }
        if url.path.hasSuffix("/search"), let term = value("term") {
            guard Bundle.module.url(forResource: "itunes/year-\(term).json", withExtension: nil, subdirectory: "Fixtures") != nil else {
                return UpstreamResponse(status: 200, contentType: "text/javascript", body: Data(#"{"resultCount":0,"results":[]}"#.utf8))
            }
            return json("itunes/year-\(term).json")
        }
        if url.path.hasSuffix("/lookup"), let ids = value("id")?.split(separator: ",").compactMap({ Int($0) }), !ids.isEmpty {
            // One id or several (`id=a,b,c`): each film the fixtures have, once.
            var results: [[String: Any]] = []
            for id in ids {
                for file in ["itunes/year-2026.json", "itunes/year-2025.json", "itunes/search.json"] {
                    let object = try! JSONSerialization.jsonObject(with: data(file)) as! [String: Any]
                    if let film = (object["results"] as! [[String: Any]]).first(where: { ($0["trackId"] as? Int) == id }) {
                        results.append(film)
                        break
                    }
                }
            }
            let answer = try! JSONSerialization.data(withJSONObject: ["resultCount": results.count, "results": results])
            return UpstreamResponse(status: 200, contentType: "text/javascript", body: answer)
        }
        return UpstreamResponse(status: 404, body: Data())
    }
}

extension Fixtures {
    nonisolated(unsafe) static let tvmazeShows: [[String: Any]] =
        try! JSONSerialization.jsonObject(with: data("tvmaze/shows.json")) as! [[String: Any]]

    /// TVMaze as the fixtures know it: one index page (0), shows by id, name search; 404s like TVMaze.
    /// Each fixture show's seasons and episodes (`tvmaze/episodes.json`), and the long show's.
    nonisolated(unsafe) static let tvmazeEpisodes: [String: (seasons: [[String: Any]], episodes: [[String: Any]])] = {
        let object = try! JSONSerialization.jsonObject(with: data("tvmaze/episodes.json")) as! [String: [String: Any]]
        var lists = object.mapValues { ($0["seasons"] as! [[String: Any]], $0["episodes"] as! [[String: Any]]) }
        let long = tvmazeLongShow["_embedded"] as! [String: Any]
        lists["990001"] = (long["seasons"] as! [[String: Any]], long["episodes"] as! [[String: Any]])
        return lists
    }()
    /// `long-show.json`: a daily show with 1,318 episodes (served only by id).
    nonisolated(unsafe) static let tvmazeLongShow: [String: Any] = {
        try! JSONSerialization.jsonObject(with: data("tvmaze/long-show.json")) as! [String: Any]
    }()

    static func tvmazeAnswer(for url: URL) -> UpstreamResponse {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func json(_ object: Any) -> UpstreamResponse {
            UpstreamResponse(status: 200, contentType: "application/json", body: try! JSONSerialization.data(withJSONObject: object))
        }
        let notFound = UpstreamResponse(
            status: 404, contentType: "application/json", body: Data(#"{"name":"Not Found","message":"","code":0,"status":404}"#.utf8))
        if url.path == "/shows" {
            return value("page") == "0" ? json(tvmazeShows) : notFound
        }
        if url.path.hasPrefix("/shows/"), let id = Int(url.path.dropFirst("/shows/".count)) {
            guard query.contains(where: { $0.name.hasPrefix("embed") }) else {
                let long = id == 990001 ? tvmazeLongShow.filter { $0.key != "_embedded" } : nil
                return (tvmazeShows.first { $0["id"] as? Int == id } ?? long).map(json) ?? notFound
            }
            // The recorded answer where there is one (TVMaze's exact bytes), else the same built from episodes.json.
            if let recorded = recorded("tvmaze/answers/show-\(id)-embed.json") {
                return UpstreamResponse(status: 200, contentType: "application/json", body: recorded)
            }
            guard var show = tvmazeShows.first(where: { $0["id"] as? Int == id }) ?? (id == 990001 ? tvmazeLongShow : nil),
                let listed = tvmazeEpisodes[String(id)]
            else { return notFound }
            show["_embedded"] = ["episodes": listed.episodes.filter { $0["type"] as? String == "regular" }, "seasons": listed.seasons]
            return json(show)
        }
        if url.path.hasPrefix("/shows/"), url.path.hasSuffix("/episodes"),
            let id = Int(url.path.dropFirst("/shows/".count).dropLast("/episodes".count))
        {
            let specials = value("specials") == "1"
            if specials, let recorded = recorded("tvmaze/answers/show-\(id)-episodes-specials.json") {
                return UpstreamResponse(status: 200, contentType: "application/json", body: recorded)
            }
            guard let listed = tvmazeEpisodes[String(id)] else { return notFound }
            return json(specials ? listed.episodes : listed.episodes.filter { $0["type"] as? String == "regular" })
        }
        if url.path == "/updates/shows" {
            return UpstreamResponse(status: 200, contentType: "application/json", body: data("tvmaze/answers/updates-shows-day.json"))
        }
        if url.path == "/lookup/shows" {
            // TVMaze answers an outside id with a redirect to the show, or 404.
            let show = tvmazeShows.first { show in
                let externals = show["externals"] as? [String: Any]
                return value("imdb").map { externals?["imdb"] as? String == $0 } ?? value("thetvdb").flatMap(Int.init).map {
                    externals?["thetvdb"] as? Int == $0
                } ?? false
            }
            guard let id = show?["id"] as? Int else { return notFound }
            return UpstreamResponse(status: 301, body: Data(), location: "https://api.tvmaze.com/shows/\(id)")
        }
        if url.path == "/search/shows" {
            let q = (value("q") ?? "").lowercased()
            return json(tvmazeShows.filter { ($0["name"] as! String).lowercased().contains(q) }.map { ["score": 0.9, "show": $0] })
        }
        return notFound
    }
}

extension Fixtures {
    nonisolated(unsafe) static let omdbMovies: [[String: Any]] = try! JSONSerialization.jsonObject(with: data("omdb/movies.json")) as! [[String: Any]]
    static let omdbKey = "test-key"

    /// OMDb as it behaves: 401 with a JSON error for a bad key, `Response: False` with a 200 for unknown titles.
    static func omdbAnswer(for url: URL) -> UpstreamResponse {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        func json(_ status: Int, _ object: Any) -> UpstreamResponse {
            UpstreamResponse(
                status: status, contentType: "application/json; charset=utf-8", body: try! JSONSerialization.data(withJSONObject: object))
        }
        guard value("apikey") == omdbKey else { return json(401, ["Response": "False", "Error": "Invalid API key!"]) }
        let match: [String: Any]?
        if let id = value("i") {
            match = omdbMovies.first { $0["imdbID"] as? String == id }
            return match.map { json(200, $0) } ?? json(200, ["Response": "False", "Error": "Error getting data."])
        }
        let title = value("t")?.lowercased()
        let year = value("y")
        match = omdbMovies.first { ($0["Title"] as! String).lowercased() == title && (year == nil || ($0["Year"] as! String).hasPrefix(year!)) }
        return match.map { json(200, $0) } ?? json(200, ["Response": "False", "Error": "Movie not found!"])
    }
}

extension Fixtures {
    /// The fixtures' films and shows as PopcornSwirl had received them before (a test app's title
    /// index starts with them, so a save by id finds its title as it would after a year list or a
    /// search; `TestApp.with(indexed: false)` starts with an empty index).
    static func received(by index: TitleIndex) async {
        let films = ["itunes/year-2025.json", "itunes/year-2026.json", "itunes/search.json"].flatMap {
            (try? ITunesDecoder.movies(from: data($0))) ?? []
        }
        await index.add(movies: films)
        await index.add(shows: (try? TVMazeDecoder.shows(from: data("tvmaze/shows.json"))) ?? [])
    }
}
