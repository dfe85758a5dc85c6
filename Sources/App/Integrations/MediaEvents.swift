import Foundation

/// Which media server an integration URL is for.
public enum IntegrationKind: String, Sendable, CaseIterable {
    case plex, jellyfin, emby, kodi, generic
}

/// Ids of a film, an episode or a show, as a media server gives them.
public struct ExternalIDs: Sendable, Equatable {
    public var imdb: String?
    public var tmdb: Int?
    public var tvdb: Int?
    public var tvmaze: Int?

    public var isEmpty: Bool { imdb == nil && tmdb == nil && tvdb == nil && tvmaze == nil }

    /// From a map of provider names to ids (`Imdb`, `tmdb`, `Tvdb`, `TvMaze`, any case).
    init(providers: [String: Any]) {
        for (name, value) in providers {
            let text = JSONFields.string(value)
            switch name.lowercased() {
            case "imdb": imdb = ExternalIDs.imdb(text)
            case "tmdb": tmdb = text.flatMap { Int($0) }
            case "tvdb": tvdb = text.flatMap { Int($0) }
            case "tvmaze": tvmaze = text.flatMap { Int($0) }
            default: break
            }
        }
    }

    init(imdb: String? = nil, tmdb: Int? = nil, tvdb: Int? = nil, tvmaze: Int? = nil) {
        self.imdb = imdb
        self.tmdb = tmdb
        self.tvdb = tvdb
        self.tvmaze = tvmaze
    }

    /// `tt0903747` when `text` is an IMDb id.
    static func imdb(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces).lowercased(), text.hasPrefix("tt"), (3...12).contains(text.count),
            text.dropFirst(2).allSatisfy(\.isNumber)
        else { return nil }
        return text
    }
}

/// One event from a media server, whatever its format: what was played and what happened.
public struct MediaEvent: Sendable, Equatable {
    public enum Action: String, Sendable, Codable {
        /// The server says it was watched (a scrobble, played to completion, marked played).
        case watched
        /// Played partway (`progress` says how far).
        case progress
        /// Marked unplayed.
        case unplayed
        /// Nothing to act on (a pause, a library event, music).
        case ignored
    }

    public enum MediaType: String, Sendable, Codable { case movie, episode }

    public var action: Action
    public var type: MediaType?
    /// The film's title, or the episode's.
    public var title: String?
    public var year: Int?
    /// The show's name (episodes).
    public var show: String?
    public var season: Int?
    public var episode: Int?
    /// The last episode of a multi-episode file.
    public var episodeEnd: Int?
    /// The item's own ids: an episode's are the episode's, never the show's.
    public var ids = ExternalIDs()
    /// The show's ids, when the server gives them apart (shemanaev's `Series`, Plex's old agents).
    public var showIDs = ExternalIDs()
    /// How far it was played, 0–100.
    public var progress: Double?
    /// The server's id of this event, when it has one (the generic format's `eventId`).
    public var eventID: String?
    /// The server's user (Plex `Account.title`, Jellyfin `NotificationUsername`, Emby `User.Name`).
    public var user: String?
    public var watchedAt: Date?
    /// The server's own id of the item, and of its show (Plex `ratingKey`/`grandparentRatingKey`,
    /// Jellyfin and Emby `ItemId`/`SeriesId`): what a person's choice of title is remembered by.
    public var serverItemID: String?
    public var serverShowID: String?
    /// The day the episode or film first aired (`yyyy-MM-dd`): a daily show's episode is found by it.
    public var aired: String?
}

extension MediaEvent: Codable {}
extension ExternalIDs: Codable {}

/// Why a body is no event.
public struct MediaEventError: Error, Sendable, Equatable {
    public var message: String
}

/// Reads a JSON value leniently: Jellyfin's templates send numbers and booleans as strings.
enum JSONFields {
    static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case let number as NSNumber: return number.stringValue
        default: return nil
        }
    }

    static func int(_ value: Any?) -> Int? {
        if let number = value as? NSNumber, !(value is Bool) { return number.intValue }
        return string(value).flatMap { Int($0) ?? Double($0).map { Int($0) } }
    }

    static func double(_ value: Any?) -> Double? {
        if let number = value as? NSNumber, !(value is Bool) { return number.doubleValue }
        return string(value).flatMap(Double.init)
    }

    static func bool(_ value: Any?) -> Bool? {
        if let flag = value as? Bool { return flag }
        switch string(value)?.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }

    static func object(_ value: Any?) -> [String: Any]? { value as? [String: Any] }

    /// `yyyy-MM-dd` from a day or an ISO 8601 moment (`2008-01-27T05:00:00.0000000Z`); nil for
    /// anything else, and for .NET's "never" (`0001-01-01`).
    static func day(_ value: Any?) -> String? {
        guard let text = string(value), text.count >= 10 else { return nil }
        let day = String(text.prefix(10))
        guard UTCFormatters.noon(ofDay: day) != nil, !day.hasPrefix("0001-") else { return nil }
        return day
    }
}

/// The formats media servers send, each turned into a `MediaEvent`.
enum MediaEventFormats {
    /// The most a body may weigh (a Plex thumbnail part is read past before this).
    static let maxJSONBytes = 256 * 1024

    static func json(_ body: Data) throws(MediaEventError) -> [String: Any] {
        guard body.count <= maxJSONBytes else { throw MediaEventError(message: "The event is larger than 256 KiB.") }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw MediaEventError(message: "The body is not a JSON object.")
        }
        return object
    }

    /// Plex's `payload` part. For an episode, `Guid` holds the episode's ids; the show comes by
    /// `grandparentTitle`, or by the old agents' `guid` (`com.plexapp.agents.thetvdb://<show>/<s>/<e>`).
    static func plex(_ payload: [String: Any]) throws(MediaEventError) -> MediaEvent {
        guard let event = JSONFields.string(payload["event"]) else { throw MediaEventError(message: "“event” is missing.") }
        guard let metadata = JSONFields.object(payload["Metadata"]) else { throw MediaEventError(message: "“Metadata” is missing.") }
        var result = MediaEvent(action: .ignored)
        result.user = JSONFields.string(JSONFields.object(payload["Account"])?["title"])
        switch JSONFields.string(metadata["type"]) {
        case "movie": result.type = .movie
        case "episode": result.type = .episode
        default: return result
        }
        result.title = JSONFields.string(metadata["title"])
        result.year = JSONFields.int(metadata["year"])
        result.serverItemID = JSONFields.string(metadata["ratingKey"])
        result.aired = JSONFields.day(metadata["originallyAvailableAt"])
        if result.type == .episode {
            result.serverShowID = JSONFields.string(metadata["grandparentRatingKey"]) ?? JSONFields.string(metadata["grandparentGuid"])
            result.show = JSONFields.string(metadata["grandparentTitle"])
            result.season = JSONFields.int(metadata["parentIndex"])
            result.episode = JSONFields.int(metadata["index"])
        }
        for guid in (metadata["Guid"] as? [Any] ?? []).compactMap({ JSONFields.string(JSONFields.object($0)?["id"]) }) {
            let parts = guid.components(separatedBy: "://")
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "imdb": result.ids.imdb = ExternalIDs.imdb(parts[1])
            case "tmdb": result.ids.tmdb = Int(parts[1])
            case "tvdb": result.ids.tvdb = Int(parts[1])
            default: break
            }
        }
        if let legacy = JSONFields.string(metadata["guid"]), legacy.hasPrefix("com.plexapp.agents.") {
            let rest = legacy.dropFirst("com.plexapp.agents.".count)
            let agent = rest.prefix { $0 != ":" }
            let path = rest.drop { $0 != "/" }.drop { $0 == "/" }.prefix { $0 != "?" }.split(separator: "/")
            switch (agent, result.type) {
            case ("imdb", _): result.ids.imdb = result.ids.imdb ?? ExternalIDs.imdb(path.first.map(String.init))
            case ("themoviedb", .movie): result.ids.tmdb = result.ids.tmdb ?? path.first.flatMap { Int($0) }
            case ("thetvdb", .episode): result.showIDs.tvdb = path.first.flatMap { Int($0) }
            default: break
            }
        }
        if let offset = JSONFields.double(metadata["viewOffset"]), let duration = JSONFields.double(metadata["duration"]), duration > 0 {
            result.progress = min(100, max(0, offset / duration * 100))
        }
        switch event {
        case "media.scrobble": result.action = .watched
        case "media.play", "media.pause", "media.resume", "media.stop": result.action = .progress
        default: result.action = .ignored
        }
        return result
    }

    /// Jellyfin's official webhook plugin ("Send All Properties", or a template of the same names).
    static func jellyfinOfficial(_ body: [String: Any]) throws(MediaEventError) -> MediaEvent {
        guard let type = JSONFields.string(body["NotificationType"]) else {
            throw MediaEventError(message: "“NotificationType” is missing.")
        }
        var result = MediaEvent(action: .ignored)
        result.user = JSONFields.string(body["NotificationUsername"])
        switch JSONFields.string(body["ItemType"]) {
        case "Movie": result.type = .movie
        case "Episode": result.type = .episode
        default: return result
        }
        result.title = JSONFields.string(body["Name"]).map(Self.unescapeHTML)
        result.year = JSONFields.int(body["Year"])
        result.serverItemID = JSONFields.string(body["ItemId"]).map(Self.plainGUID)
        result.serverShowID = JSONFields.string(body["SeriesId"]).map(Self.plainGUID)
        result.aired = JSONFields.day(body["PremiereDate"])
        if result.type == .episode {
            result.show = JSONFields.string(body["SeriesName"]).map(Self.unescapeHTML)
            result.season = JSONFields.int(body["SeasonNumber"])
            result.episode = JSONFields.int(body["EpisodeNumber"])
            result.episodeEnd = JSONFields.int(body["EpisodeNumberEnd"])
        }
        var providers: [String: Any] = [:]
        for (key, value) in body where key.hasPrefix("Provider_") { providers[String(key.dropFirst("Provider_".count))] = value }
        result.ids = ExternalIDs(providers: providers)
        if let position = JSONFields.double(body["PlaybackPositionTicks"]), let runtime = JSONFields.double(body["RunTimeTicks"]), runtime > 0 {
            result.progress = min(100, max(0, position / runtime * 100))
        }
        result.watchedAt = JSONFields.string(body["UtcTimestamp"]).flatMap { try? Date($0, strategy: .iso8601) }
        switch type {
        case "PlaybackStop":
            result.action = JSONFields.bool(body["PlayedToCompletion"]) == true ? .watched : .progress
        case "PlaybackStart", "PlaybackProgress":
            result.action = .progress
        case "UserDataSaved":
            guard JSONFields.string(body["SaveReason"]) == "TogglePlayed" else { return result }
            result.action = JSONFields.bool(body["Played"]) == true ? .watched : .unplayed
        default:
            result.action = .ignored
        }
        return result
    }

    /// The shemanaev jellyfin-plugin-webhooks format: `Series.ProviderIds` are the show's.
    static func jellyfinShemanaev(_ body: [String: Any]) throws(MediaEventError) -> MediaEvent {
        guard let event = JSONFields.string(body["Event"]), let item = JSONFields.object(body["Item"]) else {
            throw MediaEventError(message: "“Event” and “Item” are needed.")
        }
        var result = MediaEvent(action: .ignored)
        result.user = JSONFields.string(JSONFields.object(body["User"])?["Name"])
        switch JSONFields.string(item["Type"]) {
        case "Movie": result.type = .movie
        case "Episode": result.type = .episode
        default: return result
        }
        result.title = JSONFields.string(item["Name"])
        result.year = JSONFields.int(item["ProductionYear"])
        result.ids = ExternalIDs(providers: JSONFields.object(item["ProviderIds"]) ?? [:])
        result.serverItemID = JSONFields.string(item["Id"])
        result.serverShowID = JSONFields.string(item["SeriesId"])
        result.aired = JSONFields.day(item["PremiereDate"])
        if result.type == .episode {
            let series = JSONFields.object(body["Series"])
            result.show = JSONFields.string(series?["Name"]) ?? JSONFields.string(item["SeriesName"])
            result.showIDs = ExternalIDs(providers: JSONFields.object(series?["ProviderIds"]) ?? [:])
            result.season = JSONFields.int(item["ParentIndexNumber"])
            result.episode = JSONFields.int(item["IndexNumber"])
            result.episodeEnd = JSONFields.int(item["IndexNumberEnd"])
        }
        let played = JSONFields.bool(JSONFields.object(item["UserData"])?["Played"]) == true
        switch event {
        case "Stop", "Scrobble": result.action = played ? .watched : .progress
        case "MarkPlayed": result.action = .watched
        case "MarkUnplayed": result.action = .unplayed
        case "Play", "Pause", "Resume", "Progress": result.action = .progress
        default: result.action = .ignored
        }
        return result
    }

    /// Emby's webhooks (`playback.stop` with `PlaybackInfo.PlayedToCompletion`).
    static func emby(_ body: [String: Any]) throws(MediaEventError) -> MediaEvent {
        guard let event = JSONFields.string(body["Event"]), let item = JSONFields.object(body["Item"]) else {
            throw MediaEventError(message: "“Event” and “Item” are needed.")
        }
        var result = MediaEvent(action: .ignored)
        result.user = JSONFields.string(JSONFields.object(body["User"])?["Name"])
        switch JSONFields.string(item["Type"]) {
        case "Movie": result.type = .movie
        case "Episode": result.type = .episode
        default: return result
        }
        result.title = JSONFields.string(item["Name"])
        result.year = JSONFields.int(item["ProductionYear"])
        result.ids = ExternalIDs(providers: JSONFields.object(item["ProviderIds"]) ?? [:])
        result.serverItemID = JSONFields.string(item["Id"])
        result.serverShowID = JSONFields.string(item["SeriesId"])
        result.aired = JSONFields.day(item["PremiereDate"])
        if result.type == .episode {
            result.show = JSONFields.string(item["SeriesName"])
            result.season = JSONFields.int(item["ParentIndexNumber"])
            result.episode = JSONFields.int(item["IndexNumber"])
        }
        let playback = JSONFields.object(body["PlaybackInfo"])
        if let position = JSONFields.double(playback?["PositionTicks"]), let runtime = JSONFields.double(item["RunTimeTicks"]), runtime > 0 {
            result.progress = min(100, max(0, position / runtime * 100))
        }
        result.watchedAt = JSONFields.string(body["Date"]).flatMap { try? Date($0, strategy: .iso8601) }
        switch event {
        case "playback.stop": result.action = JSONFields.bool(playback?["PlayedToCompletion"]) == true ? .watched : .progress
        case "playback.start", "playback.pause", "playback.unpause": result.action = .progress
        case "item.markplayed": result.action = .watched
        case "item.markunplayed": result.action = .unplayed
        default: result.action = .ignored
        }
        return result
    }

    /// The event in a body of the integration's kind (a Jellyfin body in either plugin's format).
    static func event(kind: IntegrationKind, _ body: [String: Any]) throws(MediaEventError) -> MediaEvent {
        var event: MediaEvent
        switch kind {
        case .plex: event = try plex(body)
        case .jellyfin: event = body["NotificationType"] != nil ? try jellyfinOfficial(body) : try jellyfinShemanaev(body)
        case .emby: event = try emby(body)
        case .kodi, .generic: event = try generic(body)
        }
        // Nothing unbounded is kept: a server's names are cut to what a page shows, without control characters.
        func kept(_ text: String?, _ limit: Int) -> String? {
            text.map { String($0.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.prefix(limit).map(Character.init)) }
        }
        event.title = kept(event.title, 300)
        event.show = kept(event.show, 300)
        event.user = kept(event.user, 100)
        event.serverItemID = kept(event.serverItemID, 100)
        event.serverShowID = kept(event.serverShowID, 100)
        event.eventID = kept(event.eventID, 200)
        return event
    }

    /// A Jellyfin Guid as Send All Properties writes it (32 hex digits), whether or not a template
    /// wrote it with dashes: one item is one id whichever way its events came.
    static func plainGUID(_ text: String) -> String {
        text.count == 36 ? text.replacingOccurrences(of: "-", with: "").lowercased() : text
    }

    /// `&#x27;` and its kin in a template's text (Jellyfin's Handlebars escapes HTML).
    static func unescapeHTML(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return HTMLSanitizer.decodeEntities(text)
    }
}
