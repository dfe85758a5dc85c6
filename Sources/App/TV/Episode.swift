import Foundation

/// One episode of a show, normalised from TVMaze's episode object. `number` is nil for specials.
/// `summaryHTML` is TVMaze's untrusted HTML: render it only through `HTMLSanitizer`.
public struct Episode: Codable, Sendable, Hashable, Identifiable {
    public enum Kind: String, Codable, Sendable {
        case regular
        case significantSpecial = "significant_special"
        case insignificantSpecial = "insignificant_special"
    }

    public var id: Int
    public var showID: Int
    /// Place in TVMaze's airing order (regular episodes first, then specials, each in airing order).
    public var position: Int
    public var season: Int
    /// Nil for a special.
    public var number: Int?
    public var kind: Kind
    public var name: String
    /// `yyyy-MM-dd` in the network's own time zone; nil when not scheduled.
    public var airdate: String?
    /// `HH:mm` in the network's own time zone; nil when not known.
    public var airtime: String?
    /// The instant it airs (UTC); nil when not scheduled.
    public var airstamp: Date?
    public var runtimeMinutes: Int?
    public var summaryHTML: String?
    public var imageMedium: String?

    public var isSpecial: Bool { kind != .regular || number == nil }

    /// When it airs for the purpose of "has it aired?": its airstamp, else the start of its air day
    /// (UTC); nil when TVMaze has neither (not yet scheduled).
    public var airsAt: Date? { airstamp ?? airdate.flatMap(UTCFormatters.startOfDay) }

    /// Whether it has aired by `now` (an episode with no date has not).
    public func hasAired(by now: Date) -> Bool { airsAt.map { $0 <= now } ?? false }

    /// "S02E05"; "S02 special" for a special.
    public var code: String {
        let s = "S" + Self.twoDigits(season)
        return number.map { s + "E" + Self.twoDigits($0) } ?? s + " special"
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A season as TVMaze lists it.
public struct Season: Codable, Sendable, Hashable {
    public var number: Int
    public var name: String?
    public var episodeOrder: Int?
    public var premiereDate: String?
    public var endDate: String?
}

/// A show's episodes as TVMaze answers them, in airing order: regular episodes, then specials.
public struct EpisodeList: Sendable, Equatable {
    public var showID: Int
    public var seasons: [Season]
    public var episodes: [Episode]
    /// TVMaze's status of the show (`Ended`, `Running`, …), when known.
    public var showStatus: String? = nil
    /// The show's network or web channel (`Netflix`), when known.
    public var network: String? = nil

    public var regular: [Episode] { episodes.filter { !$0.isSpecial } }
    public var specials: [Episode] { episodes.filter(\.isSpecial) }
}

/// TVMaze's episode object, decoded tolerantly: anything but `id` and `season` may be missing or null.
struct TVMazeEpisode: Decodable {
    let id: Int
    let season: Int
    let number: Int?
    let type: String?
    let name: String?
    let airdate: String?
    let airtime: String?
    let airstamp: String?
    let runtime: Int?
    let summary: String?
    let image: Image?

    struct Image: Decodable {
        var medium: String?
        var original: String?
    }

    private enum Keys: String, CodingKey {
        case id, season, number, type, name, airdate, airtime, airstamp, runtime, summary, image
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        func decoded<T: Decodable>(_ type: T.Type, _ key: Keys) -> T? { (try? c.decodeIfPresent(T.self, forKey: key)) ?? nil }
        func text(_ key: Keys) -> String? {
            guard let value = decoded(String.self, key)?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
            return value
        }
        id = try c.decode(Int.self, forKey: .id)
        season = try c.decode(Int.self, forKey: .season)
        number = decoded(Int.self, .number)
        type = text(.type)
        name = text(.name)
        airdate = text(.airdate)
        airtime = text(.airtime)
        airstamp = text(.airstamp)
        runtime = decoded(Int.self, .runtime)
        summary = text(.summary)
        image = decoded(Image.self, .image)
    }

    func episode(showID: Int, position: Int) -> Episode? {
        guard id > 0, (0...10_000).contains(season) else { return nil }
        let kind = type.flatMap(Episode.Kind.init(rawValue:)) ?? (number == nil ? .significantSpecial : .regular)
        return Episode(
            id: id, showID: showID, position: position, season: season, number: kind == .regular ? number : nil,
            kind: number == nil && kind == .regular ? .significantSpecial : kind, name: String((name ?? "TBA").prefix(300)),
            airdate: airdate.flatMap { UTCFormatters.startOfDay($0) == nil ? nil : $0 },
            airtime: airtime.flatMap { $0.count == 5 ? $0 : nil }, airstamp: airstamp.flatMap(TVMazeDecoder.instant),
            runtimeMinutes: runtime.flatMap { (1...2_000).contains($0) ? $0 : nil }, summaryHTML: summary.map { String($0.prefix(20_000)) },
            imageMedium: image?.medium.flatMap(SafeURL.http))
    }
}

private struct TVMazeSeason: Decodable {
    let number: Int
    let name: String?
    let episodeOrder: Int?
    let premiereDate: String?
    let endDate: String?

    var season: Season {
        Season(
            number: number, name: name.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }, episodeOrder: episodeOrder,
            premiereDate: premiereDate, endDate: endDate)
    }
}

/// `/shows/:id?embed[]=episodes&embed[]=seasons&embed[]=nextepisode`: the show with `_embedded`.
private struct TVMazeEmbeddedShow: Decodable {
    let id: Int
    let status: String?
    let network: String?
    let embedded: Embedded?

    private struct Named: Decodable {
        let name: String?
    }

    struct Embedded: Decodable {
        let episodes: [Lossy<TVMazeEpisode>]?
        let seasons: [Lossy<TVMazeSeason>]?
    }

    private enum Keys: String, CodingKey {
        case id, status, network, webChannel
        case embedded = "_embedded"
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        id = try c.decode(Int.self, forKey: .id)
        status = try? c.decodeIfPresent(String.self, forKey: .status)
        let network = (try? c.decodeIfPresent(Named.self, forKey: .network))?.name
        self.network = network ?? (try? c.decodeIfPresent(Named.self, forKey: .webChannel))?.name
        embedded = try c.decodeIfPresent(Embedded.self, forKey: .embedded)
    }
}

extension TVMazeDecoder {
    /// The most episodes of one show PopcornSwirl keeps (the longest daily shows have ~15,000).
    static let maxEpisodes = 20_000

    /// A show's seasons and regular episodes from its embed answer, plus the specials of a
    /// `/shows/:id/episodes?specials=1` answer (its regular episodes are already in the first).
    /// Throws when the embed answer is not a show with embedded episodes.
    static func episodes(showID: Int, embed: Data, specials: Data?) throws -> EpisodeList {
        let show = try JSONDecoder().decode(TVMazeEmbeddedShow.self, from: embed)
        guard show.id == showID, let embedded = show.embedded, let regular = embedded.episodes else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no embedded episodes for show \(showID)"))
        }
        var wire = regular.compactMap(\.value).filter { $0.number != nil && ($0.type ?? "regular") == "regular" }
        if let specials {
            wire += try JSONDecoder().decode([Lossy<TVMazeEpisode>].self, from: specials).compactMap(\.value)
                .filter { $0.number == nil || ($0.type ?? "regular") != "regular" }
        }
        var seen = Set<Int>()
        let episodes = wire.prefix(maxEpisodes).filter { seen.insert($0.id).inserted }.enumerated()
            .compactMap { $0.element.episode(showID: showID, position: $0.offset) }
        let seasons = (embedded.seasons ?? []).compactMap { $0.value?.season }.sorted { $0.number < $1.number }
        return EpisodeList(
            showID: showID, seasons: seasons, episodes: episodes, showStatus: show.status.map { String($0.prefix(40)) },
            network: show.network.map { String($0.prefix(80)) })
    }

    /// Checks a `/shows/:id/episodes?specials=1` answer.
    static func checkEpisodeArray(_ body: Data) throws {
        _ = try JSONDecoder().decode([Lossy<TVMazeEpisode>].self, from: body)
    }

    /// TVMaze's airstamp (`2013-06-25T02:00:00+00:00`).
    static func instant(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
