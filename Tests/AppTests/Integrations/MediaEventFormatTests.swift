import Foundation
import Testing

@testable import App

/// Each media server's format read from recorded payloads (`Fixtures/integrations/README.md` says
/// where each shape comes from).
@Suite("Media server events: formats")
struct MediaEventFormatTests {
    static func json(_ name: String) throws -> [String: Any] {
        try MediaEventFormats.json(Fixtures.data("integrations/\(name).json"))
    }

    @Test("Plex: a scrobbled episode carries the episode's own ids, never taken for the show's; a film's play is progress")
    func plex() throws {
        let episode = try MediaEventFormats.plex(Self.json("plex-episode-scrobble"))
        #expect(episode.action == .watched && episode.type == .episode)
        #expect(episode.show == "Breaking Bad" && episode.season == 1 && episode.episode == 2 && episode.title == "Cat's in the Bag...")
        #expect(episode.ids == ExternalIDs(imdb: "tt1054724", tmdb: 62086, tvdb: 349233))
        #expect(episode.showIDs.isEmpty, "Plex gives no show-level id here: the show is found by its name")
        #expect((episode.progress ?? 0) > 90)
        let play = try MediaEventFormats.plex(Self.json("plex-movie-play"))
        #expect(play.action == .progress && play.type == .movie && play.title == "Inception" && play.year == 2010 && play.ids.imdb == "tt1375666")
        let scrobble = try MediaEventFormats.plex(Self.json("plex-movie-scrobble"))
        #expect(scrobble.action == .watched && scrobble.ids.tmdb == 27205)
        // The old agents' guid names the show.
        var legacy = try Self.json("plex-episode-scrobble")
        var metadata = legacy["Metadata"] as! [String: Any]
        metadata["Guid"] = nil
        metadata["guid"] = "com.plexapp.agents.thetvdb://81189/1/2?lang=en"
        legacy["Metadata"] = metadata
        let old = try MediaEventFormats.plex(legacy)
        #expect(old.showIDs.tvdb == 81189 && old.ids.isEmpty)
    }

    @Test(
        "Jellyfin's official plugin: a two-episode file played to completion; numbers and booleans as strings from a template; a toggled played film")
    func jellyfinOfficial() throws {
        let stop = try MediaEventFormats.jellyfinOfficial(Self.json("jellyfin-official-playbackstop"))
        #expect(stop.action == .watched && stop.type == .episode && stop.show == "Breaking Bad")
        #expect(stop.season == 1 && stop.episode == 1 && stop.episodeEnd == 2)
        let template = try MediaEventFormats.jellyfinOfficial(Self.json("jellyfin-official-template-playbackstop"))
        #expect(template.action == stop.action && template.season == stop.season && template.episodeEnd == stop.episodeEnd)
        #expect(template.title?.contains("&#") == false)
        let toggled = try MediaEventFormats.jellyfinOfficial(Self.json("jellyfin-official-userdatasaved"))
        #expect(toggled.action == .watched && toggled.type == .movie && toggled.ids.imdb != nil)
        #expect(throws: MediaEventError.self) { try MediaEventFormats.jellyfinOfficial(["Name": "x"]) }
    }

    @Test("Jellyfin's shemanaev plugin: the show's ids come from Series, the episode's from Item; MarkPlayed of a film")
    func jellyfinShemanaev() throws {
        let stop = try MediaEventFormats.jellyfinShemanaev(Self.json("jellyfin-shemanaev-stop"))
        #expect(stop.action == .watched && stop.showIDs == ExternalIDs(imdb: "tt0903747", tmdb: 1396, tvdb: 81189))
        #expect(stop.ids.tvdb == 349233 && stop.season == 1 && stop.episode == 2)
        let marked = try MediaEventFormats.jellyfinShemanaev(Self.json("jellyfin-shemanaev-markplayed"))
        #expect(marked.action == .watched && marked.type == .movie && marked.ids.imdb == "tt1375666" && marked.year == 2010)
    }

    @Test("Emby: playback.stop played to completion; an unknown show with no ids still says its name, season and number")
    func emby() throws {
        let stop = try MediaEventFormats.emby(Self.json("emby-playback-stop"))
        #expect(stop.action == .watched && stop.type == .episode && stop.show == "Breaking Bad" && stop.ids.imdb == "tt1054724")
        let unknown = try MediaEventFormats.emby(Self.json("emby-unknown-show"))
        #expect(unknown.ids.isEmpty && unknown.show == "Grandpa's Garage Tapes" && unknown.season == 1 && unknown.episode == 3)
        #expect(throws: MediaEventError.self) { try MediaEventFormats.json(Data("not json".utf8)) }
    }
}
