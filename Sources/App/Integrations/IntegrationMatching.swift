import Foundation
import SQLKit

/// Finding the title of an event: the person's remembered choice for the server's id, then the
/// ids and names the server gave (see `IntegrationWorker`).
extension IntegrationWorker {
    enum Found {
        case title(MatchedTitle, how: String)
        case later(Outcome)
    }

    /// What a person's choice (or an earlier match) is remembered by: the server's id of the film
    /// or show, else its name (and a film's year).
    static func serverKey(_ event: MediaEvent) -> String {
        let fold = { (text: String?) in String(SearchQuery.fold(text ?? "").lowercased().prefix(200)) }
        if event.type == .episode {
            if let id = event.serverShowID { return "show:server:" + id }
            if let name = event.show { return "show:title:" + fold(name) }
            return "show:ids:\(event.showIDs.tvdb ?? 0):\(event.showIDs.imdb ?? ""):\(event.showIDs.tvmaze ?? 0)"
        }
        if let id = event.serverItemID { return "movie:server:" + id }
        if let title = event.title { return "movie:title:" + fold(title) + "|" + (event.year.map(String.init) ?? "") }
        return "movie:ids:\(event.ids.imdb ?? ""):\(event.ids.tmdb ?? 0)"
    }

    func film(_ event: MediaEvent, integration: Integration) async throws -> Found {
        let key = Self.serverKey(event)
        if let remembered = try await choice(integration: integration.id, key: key) { return .title(remembered, how: "remembered") }
        var row = ImportRow(file: "integration", line: 0, kind: .movie, title: event.title ?? "", year: event.year)
        row.imdbID = event.ids.imdb
        row.tmdbID = event.ids.tmdb
        guard !row.title.isEmpty || row.imdbID != nil else {
            return .later(.waiting("The server named no film: choose it.", []))
        }
        switch try await matcher.resolve(row, profile: integration.profileID) {
        case .found(let title, let how):
            try await remember(title, integration: integration.id, key: key, chosen: false)
            return .title(title, how: how)
        case .notInCatalogue(let film, let reason):
            return .title(.movie(film), how: reason)
        case .unsure(let candidates, let reason):
            let said = event.title == nil ? "Only its IMDb id (\(row.imdbID ?? "")) came, and no title is known for it: choose the film." : reason
            return .later(.waiting(said, candidates))
        case .wait(let seconds, let reason):
            return .later(.retry(seconds: seconds, reason))
        }
    }

    func show(_ event: MediaEvent, integration: Integration) async throws -> Found {
        let key = Self.serverKey(event)
        if let remembered = try await choice(integration: integration.id, key: key) { return .title(remembered, how: "remembered") }
        // The show's own ids first: never an episode's (`event.ids`).
        if let id = event.showIDs.tvmaze, case .found(let show, _) = await shows.show(id: id) {
            try await remember(.show(show), integration: integration.id, key: key, chosen: false)
            return .title(.show(show), how: "TVMaze id")
        }
        let outside: [(ShowCatalog.ExternalID, String)] =
            [event.showIDs.tvdb.map { (.thetvdb($0), "TheTVDB id on TVMaze") }, event.showIDs.imdb.map { (.imdb($0), "IMDb id on TVMaze") }]
            .compactMap { $0 }
        for (id, how) in outside {
            switch await shows.lookup(id) {
            case .success(let show?):
                try await remember(.show(show), integration: integration.id, key: key, chosen: false)
                return .title(.show(show), how: how)
            case .success(nil): continue
            case .failure(let error):
                if case .wait(let seconds, let reason) = TitleMatcher.refused(error, "TVMaze") { return .later(.retry(seconds: seconds, reason)) }
            }
        }
        if let name = event.show {
            if let show = try await trackedShow(named: name, profile: integration.profileID) {
                try await remember(.show(show), integration: integration.id, key: key, chosen: false)
                return .title(.show(show), how: "one of your shows")
            }
            var row = ImportRow(file: "integration", line: 0, kind: .show, title: name, year: nil)
            row.imdbID = event.showIDs.imdb
            row.tvdbID = event.showIDs.tvdb
            switch try await matcher.resolve(row, profile: integration.profileID) {
            case .found(let title, let how):
                try await remember(title, integration: integration.id, key: key, chosen: false)
                return .title(title, how: how)
            case .notInCatalogue:
                break
            case .unsure(let candidates, let reason):
                if let found = try await trackedEpisodeShow(event, profile: integration.profileID) {
                    return .title(.show(found), how: "episode title")
                }
                return .later(.waiting(reason, candidates))
            case .wait(let seconds, let reason):
                return .later(.retry(seconds: seconds, reason))
            }
        }
        if let found = try await trackedEpisodeShow(event, profile: integration.profileID) { return .title(.show(found), how: "episode title") }
        return .later(.waiting("The server named no show PopcornSwirl knows: choose it.", []))
    }

    /// The shows a person follows (watched, stopped or saved), by id and name.
    func trackedShows(profile: UUID) async throws -> [(id: Int, name: String)] {
        struct Row: Decodable {
            var show_id: Int
            var title: String
        }
        let rows = try await database.sql.raw(
            """
            SELECT show_id, title FROM show_progress WHERE profile_id = \(bind: profile) \
            UNION SELECT CAST(item_id AS INTEGER) AS show_id, title FROM library_entries WHERE profile_id = \(bind: profile) AND media_kind = 'show'
            """
        ).all(decoding: Row.self)
        return rows.map { ($0.show_id, $0.title) }
    }

    func trackedShow(named name: String, profile: UUID) async throws -> Show? {
        let wanted = SearchQuery.fold(name).lowercased()
        let found = try await trackedShows(profile: profile).filter { SearchQuery.fold($0.name).lowercased() == wanted }
        guard found.count == 1 else { return nil }
        return await held(showID: found[0].id)
    }

    /// The show among the person's whose episode has the event's title, when exactly one has.
    func trackedEpisodeShow(_ event: MediaEvent, profile: UUID) async throws -> Show? {
        guard let title = event.title else { return nil }
        let wanted = SearchQuery.fold(title).lowercased()
        var found: Set<Int> = []
        for tracked in try await trackedShows(profile: profile) {
            let list = try await episodes.episodes(showID: tracked.id)
            if list.contains(where: { SearchQuery.fold($0.name).lowercased() == wanted }) { found.insert(tracked.id) }
        }
        guard found.count == 1, let id = found.first else { return nil }
        return await held(showID: id)
    }

    func held(showID: Int) async -> Show? {
        if case .found(let show, _) = await shows.known(id: showID) { return show }
        if case .found(let show, _) = await shows.show(id: showID) { return show }
        return nil
    }

    // MARK: Choices

    func choice(integration: UUID, key: String) async throws -> MatchedTitle? {
        let row = try await database.sql.select().columns("media_kind", "snapshot").from("integration_choices")
            .where("integration_id", .equal, SQLBind(integration)).where("server_key", .equal, SQLBind(key)).first()
        guard let row, let kind = MediaKind(rawValue: try row.decode(column: "media_kind", as: String.self)) else { return nil }
        return MatchedTitle(kind: kind, snapshot: Data(try row.decode(column: "snapshot", as: String.self).utf8))
    }

    /// Remembers the title for the server's id: a person's choice replaces anything; a match found
    /// never replaces a choice.
    func remember(_ title: MatchedTitle, integration: UUID, key: String, chosen: Bool) async throws {
        let snapshot = String(decoding: try title.snapshot(), as: UTF8.self)
        let now = clock.now()
        try await database.writeSQL { sql in
            let insert = sql.insert(into: "integration_choices")
                .columns("integration_id", "server_key", "media_kind", "item_id", "snapshot", "chosen", "created_at")
                .values(
                    SQLBind(integration), SQLBind(key), SQLBind(title.kind.rawValue), SQLBind(title.id), SQLBind(snapshot), SQLBind(chosen),
                    SQLBind(now))
            if chosen {
                try await insert.onConflict(with: ["integration_id", "server_key"]) {
                    $0.set(excludedValueOf: "media_kind").set(excludedValueOf: "item_id").set(excludedValueOf: "snapshot")
                        .set(excludedValueOf: "chosen").set(excludedValueOf: "created_at")
                }.run()
            } else {
                try await insert.ignoringConflicts(with: ["integration_id", "server_key"]).run()
            }
        }
    }
}
