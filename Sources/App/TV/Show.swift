import Foundation

/// A TV show as PopcornSwirl keeps it, normalised from TVMaze's show object. Saved shows keep this
/// whole struct as their snapshot. `summaryHTML` is TVMaze's untrusted HTML: render it only through
/// `HTMLSanitizer`.
public struct Show: Codable, Sendable, Hashable, Identifiable {
    public var id: Int
    public var name: String
    public var tvmazeURL: String?
    public var type: String?
    public var language: String?
    public var genres: [String]
    public var status: String?
    public var runtimeMinutes: Int?
    public var premiered: String?
    public var ended: String?
    public var officialSite: String?
    public var scheduleTime: String?
    public var scheduleDays: [String]
    public var rating: Double?
    public var network: String?
    public var networkCountry: String?
    public var webChannel: String?
    public var imdbID: String?
    public var imageMedium: String?
    public var imageOriginal: String?
    public var summaryHTML: String?

    public init(id: Int, name: String, genres: [String] = [], scheduleDays: [String] = []) {
        self.id = id
        self.name = name
        self.genres = genres
        self.scheduleDays = scheduleDays
    }

    /// `https://www.imdb.com/title/{id}` when TVMaze knows a well-formed IMDb id.
    public var imdbURL: String? {
        guard let imdbID, imdbID.hasPrefix("tt"), imdbID.count <= 12, imdbID.dropFirst(2).allSatisfy(\.isNumber) else { return nil }
        return "https://www.imdb.com/title/\(imdbID)"
    }

    public var premieredYear: Int? { premiered.flatMap { Int($0.prefix(4)) } }

    /// "Sunday at 22:00", "Monday, Tuesday", "at 21:00", or nil when TVMaze has no schedule.
    public var scheduleText: String? {
        let days = scheduleDays.joined(separator: ", ")
        let text = [days.isEmpty ? nil : days, scheduleTime.map { "at \($0)" }].compactMap { $0 }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }
}

/// TVMaze's show object, decoded tolerantly: anything but `id` and `name` may be missing or null.
struct TVMazeShow: Decodable {
    let show: Show

    private struct Named: Decodable {
        var name: String?
        var country: Country?
        struct Country: Decodable { var name: String? }
    }
    private struct Schedule: Decodable {
        var time: String?
        var days: [String]?
    }
    private struct Rating: Decodable { var average: Double? }
    private struct Externals: Decodable { var imdb: String? }
    private struct Image: Decodable {
        var medium: String?
        var original: String?
    }

    private enum Keys: String, CodingKey {
        case id, url, name, type, language, genres, status, runtime, averageRuntime, premiered, ended, officialSite
        case schedule, rating, network, webChannel, externals, image, summary
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        var show = Show(id: try c.decode(Int.self, forKey: .id), name: try c.decode(String.self, forKey: .name))
        func text(_ key: Keys) -> String? {
            guard let value = (try? c.decodeIfPresent(String.self, forKey: key)) ?? nil else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        }
        func decoded<T: Decodable>(_ type: T.Type, _ key: Keys) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
        show.tvmazeURL = text(.url).flatMap(SafeURL.http)
        show.type = text(.type)
        show.language = text(.language)
        show.genres = decoded([String].self, .genres) ?? []
        show.status = text(.status)
        show.runtimeMinutes = decoded(Int.self, .runtime) ?? decoded(Int.self, .averageRuntime)
        show.premiered = text(.premiered)
        show.ended = text(.ended)
        show.officialSite = text(.officialSite).flatMap(SafeURL.http)
        let schedule = decoded(Schedule.self, .schedule)
        show.scheduleTime = schedule?.time.flatMap { $0.isEmpty ? nil : $0 }
        show.scheduleDays = schedule?.days ?? []
        show.rating = decoded(Rating.self, .rating)?.average
        let network = decoded(Named.self, .network)
        show.network = network?.name
        show.networkCountry = network?.country?.name
        show.webChannel = decoded(Named.self, .webChannel)?.name
        show.imdbID = decoded(Externals.self, .externals)?.imdb
        let image = decoded(Image.self, .image)
        show.imageMedium = image?.medium.flatMap(SafeURL.http)
        show.imageOriginal = image?.original.flatMap(SafeURL.http)
        show.summaryHTML = text(.summary)
        self.show = show
    }
}

/// `[{score, show}]` from `/search/shows`.
struct TVMazeSearchHit: Decodable {
    let show: TVMazeShow
}

enum TVMazeDecoder {
    /// A `/shows?page=N` body: shows that fail to decode are skipped, not fatal.
    static func shows(from body: Data) throws -> [Show] {
        try JSONDecoder().decode([Lossy<TVMazeShow>].self, from: body).compactMap { $0.value?.show }
    }

    static func show(from body: Data) throws -> Show {
        try JSONDecoder().decode(TVMazeShow.self, from: body).show
    }

    static func search(from body: Data) throws -> [Show] {
        try JSONDecoder().decode([Lossy<TVMazeSearchHit>].self, from: body).compactMap { $0.value?.show.show }
    }
}

/// Decodes an element or nothing, so one bad element does not sink a whole list.
struct Lossy<T: Decodable>: Decodable {
    let value: T?

    init(from decoder: Decoder) throws {
        value = try? T(from: decoder)
    }
}
