import Foundation

extension MediaEventFormats {
    /// PopcornSwirl's own format, for Kodi and anything else (`GenericMediaEvent` in `openapi.yaml`):
    /// `type` movie|episode, `ids` {imdb, tmdb, tvdb, tvmaze} of the item, `show` {title, ids} for
    /// an episode, `season`, `episode` (`episodeEnd` for a multi-episode file), `aired`, `title`,
    /// `year`, `progress` 0–100, `action` (watched, progress or unplayed; by default watched, or
    /// progress when `progress` is sent), `watchedAt` (ISO 8601), `eventId` (a retry with the same
    /// id is the same event), `user`.
    static func generic(_ body: [String: Any]) throws(MediaEventError) -> MediaEvent {
        var result = MediaEvent(action: .watched)
        switch JSONFields.string(body["type"])?.lowercased() {
        case "movie": result.type = .movie
        case "episode": result.type = .episode
        default: throw MediaEventError(message: "“type” must be \"movie\" or \"episode\".")
        }
        func ids(_ value: Any?, _ name: String) throws(MediaEventError) -> ExternalIDs {
            guard let value else { return ExternalIDs() }
            guard let object = JSONFields.object(value) else {
                throw MediaEventError(message: "“\(name)” must be an object such as {\"imdb\": \"tt0903747\"}.")
            }
            let found = ExternalIDs(providers: object)
            if let imdb = object["imdb"], found.imdb == nil, JSONFields.string(imdb) != nil {
                throw MediaEventError(message: "“\(name).imdb” must be an IMDb id such as tt0903747.")
            }
            return found
        }
        func number(_ name: String, _ range: ClosedRange<Int>) throws(MediaEventError) -> Int? {
            guard let value = body[name], !(value is NSNull) else { return nil }
            guard let number = JSONFields.int(value), range.contains(number) else {
                throw MediaEventError(message: "“\(name)” must be a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return number
        }
        result.ids = try ids(body["ids"], "ids")
        result.title = JSONFields.string(body["title"])
        result.year = try number("year", 1888...2200)
        if let progress = body["progress"], !(progress is NSNull) {
            guard let value = JSONFields.double(progress), (0...100).contains(value) else {
                throw MediaEventError(message: "“progress” must be a number from 0 to 100.")
            }
            result.progress = value
            result.action = .progress
        }
        switch JSONFields.string(body["action"])?.lowercased() {
        case nil: break
        case "watched": result.action = .watched
        case "progress": result.action = .progress
        case "unplayed": result.action = .unplayed
        default: throw MediaEventError(message: "“action” must be watched, progress or unplayed.")
        }
        if result.action == .progress, result.progress == nil { throw MediaEventError(message: "A “progress” action needs “progress” (0–100).") }
        if let raw = body["watchedAt"], !(raw is NSNull) {
            guard let text = JSONFields.string(raw), let moment = try? Date(text, strategy: .iso8601) else {
                throw MediaEventError(message: "“watchedAt” must be an ISO 8601 moment such as 2026-11-29T21:30:00Z.")
            }
            result.watchedAt = moment
        }
        if let raw = body["eventId"], !(raw is NSNull) {
            guard let id = JSONFields.string(raw), id.count <= 200 else {
                throw MediaEventError(message: "“eventId” must be a text of at most 200 characters.")
            }
            result.eventID = id
        }
        result.user = JSONFields.string(body["user"])
        if let raw = body["aired"], !(raw is NSNull) {
            guard let day = JSONFields.day(raw) else { throw MediaEventError(message: "“aired” must be a day such as 2008-01-27.") }
            result.aired = day
        }
        if result.type == .episode {
            if let raw = body["show"], !(raw is NSNull) {
                guard let show = JSONFields.object(raw) else { throw MediaEventError(message: "“show” must be an object: {\"title\", \"ids\"}.") }
                result.show = JSONFields.string(show["title"])
                result.showIDs = try ids(show["ids"], "show.ids")
            }
            result.season = try number("season", 0...10_000)
            result.episode = try number("episode", 0...100_000)
            result.episodeEnd = try number("episodeEnd", 0...100_000)
            guard result.show != nil || !result.showIDs.isEmpty else {
                throw MediaEventError(message: "An episode needs its “show”: a title, ids, or both.")
            }
            guard (result.season != nil && result.episode != nil) || result.aired != nil || result.title != nil else {
                throw MediaEventError(message: "An episode needs “season” and “episode”, its “aired” day, or its “title”.")
            }
        } else {
            guard result.title != nil || !result.ids.isEmpty else { throw MediaEventError(message: "A film needs its “title” or its “ids”.") }
        }
        return result
    }
}
