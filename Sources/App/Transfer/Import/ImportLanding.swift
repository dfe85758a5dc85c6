import Foundation

/// Puts what a matched row says into the person's lists, each fact only when it is not there
/// already, so a second import of the same file adds nothing:
/// - a rating (of the title; a diary row's rating is its watch's, and the title's when it has none);
/// - liked → Favorite; the watchlist → Favorite too (the seeds' favourite list is the person's
///   "movies to watch"); watched (dated or not) → Watched, for films (shows have no Watched list);
/// - a dated watch → the diary, with the review and tags as its note (a title watched twice on a
///   day in the file is logged twice, once per row);
/// - a day it was marked watched (Letterboxd's watched.csv) → a watch that day, when the diary has
///   none of the film, so the diary and the statistics count every watched film with a date;
/// - a named list → that list, at its place;
/// - an episode's watch (with its day and moment) or rating → that episode's (`EpisodeService.land`),
///   once the show's episode list is held; an episode TVMaze does not list fails, saying so;
/// - a season's rating → that season's;
/// - a show followed or Stopped, or watched up to an episode (TV Time, Simkl) → the person's shows.
struct ImportLanding: Sendable {
    let library: LibraryService
    let diary: DiaryService
    let lists: CustomListService
    let episodes: EpisodeService
    let episodeCatalog: EpisodeCatalog
    let store: ImportStore

    private struct Failed: Error {
        var step: String
        var reason: String
    }

    /// The show's episode list can't be had now (TVMaze unreachable or over its allowance, and the
    /// show not in the bundled catalogue): the row is landed later.
    private struct Later: Error {
        var reason: String
    }

    /// What became of a row: settled, or to be landed after a wait.
    enum Landed: Sendable, Equatable {
        case settled(RowSettlement)
        case wait(seconds: Int, reason: String)
    }

    func land(_ row: ImportRow, as title: MatchedTitle, how: String, job: ImportJob, number: Int) async -> Landed {
        do {
            let (added, note) =
                if case .show(let show) = title, let named = row.episode {
                    try await episode(row, named, of: show, job: job, number: number)
                } else if case .show(let show) = title, let season = row.ratedSeason {
                    try await seasonRating(row, season, of: show, job: job)
                } else if case .show(let show) = title, row.following != nil || row.watchedThrough != nil {
                    try await self.show(row, show, job: job, number: number)
                } else {
                    (try await facts(row, title, job: job, number: number), nil as String?)
                }
            return .settled(
                RowSettlement(
                    state: added ? .landed : .skipped, step: "match", reason: added ? note : "Already in your lists.", title: title, how: how))
        } catch let later as Later {
            return .wait(seconds: TitleMatcher.waitAfterRefusal, reason: later.reason)
        } catch let failed as Failed {
            return .settled(RowSettlement(state: .failed, step: failed.step, reason: failed.reason, title: title, how: how))
        } catch {
            return .settled(RowSettlement(state: .failed, step: "save", reason: LibraryError.storageFailed("").message, title: title, how: how))
        }
    }

    /// An episode's watch or rating. Returns whether anything was added, and the episode it landed as
    /// (for the report).
    private func episode(_ row: ImportRow, _ named: ImportedEpisode, of show: Show, job: ImportJob, number: Int) async throws -> (Bool, String?) {
        guard await episodeCatalog.prepare(showID: show.id) != nil else {
            throw Later(reason: "Waiting for TVMaze’s list of the episodes of “\(show.name)”.")
        }
        guard let episode = try await episodes.episode(showID: show.id, season: named.season, number: named.number, name: named.name) else {
            let name = named.name.map { " “\($0)”" } ?? ""
            throw Failed(
                step: "episode", reason: "TVMaze lists no \(named.code)\(name) of “\(show.name)”: mark it on the show’s page if it is there.")
        }
        var imported = EpisodeImport(
            episode: episode, watched: row.watched, day: row.watchedOn, at: row.watchedAt.flatMap(TraktFiles.moment), rating: row.rating)
        if let day = row.watchedOn {
            imported.earlier = try await store.earlierWatches(job: job.id, before: number, kind: .show, id: show.id, day: day, episode: named)
        }
        do {
            let added = try await episodes.land(imported, show: show, profile: job.profileID)
            return (added, "\(episode.code) “\(episode.name)”")
        } catch {
            throw Failed(step: "episode", reason: error.message)
        }
    }

    /// A rating of a whole season, once the show's seasons are held; a season TVMaze does not list fails, saying so.
    private func seasonRating(_ row: ImportRow, _ season: Int, of show: Show, job: ImportJob) async throws -> (Bool, String?) {
        guard let rating = row.rating else { return (false, nil) }
        guard await episodeCatalog.prepare(showID: show.id) != nil else {
            throw Later(reason: "Waiting for TVMaze’s list of the episodes of “\(show.name)”.")
        }
        guard try await episodes.seasonRatings(profile: job.profileID, showID: show.id)[season] != rating else { return (false, nil) }
        do {
            try await episodes.rateSeason(profile: job.profileID, show: show, season: season, rating: rating)
        } catch .notFound {
            throw Failed(step: "rating", reason: "TVMaze lists no season \(season) of “\(show.name)”: rate it on the show’s page if it is there.")
        } catch {
            throw Failed(step: "rating", reason: error.message)
        }
        return (true, "Season \(season) rated \(Rating.words(rating)).")
    }

    /// A show's own facts (favorite, rating), then how far the person got (`watchedThrough`) and
    /// whether they follow it or stopped.
    private func show(_ row: ImportRow, _ show: Show, job: ImportJob, number: Int) async throws -> (Bool, String?) {
        // The day a show was watched up to is its last episode's, not a watch of the whole show.
        var own = row
        (own.watched, own.watchedOn, own.watchedAt) = (false, nil, nil)
        var added = try await facts(own, .show(show), job: job, number: number)
        var note: String?
        if let through = row.watchedThrough {
            guard await episodeCatalog.prepare(showID: show.id) != nil else {
                throw Later(reason: "Waiting for TVMaze’s list of the episodes of “\(show.name)”.")
            }
            let marked: Int?
            do {
                marked = try await episodes.landThrough(
                    through, day: row.watchedOn, at: row.watchedAt.flatMap(TraktFiles.moment), show: show, profile: job.profileID)
            } catch {
                throw Failed(step: "episode", reason: error.message)
            }
            guard let marked else {
                throw Failed(
                    step: "episode", reason: "TVMaze lists no \(through.code) of “\(show.name)”: mark how far you got on the show’s page.")
            }
            if marked > 0 {
                added = true
                note = "Watched up to \(through.code): \(marked) episode\(marked == 1 ? "" : "s") marked."
            }
        }
        if let following = row.following {
            do {
                if try await episodes.follow(profile: job.profileID, show: show, stopped: following == .stopped) {
                    added = true
                    note = note ?? (following == .stopped ? "In your shows, Stopped." : "In your shows.")
                }
            } catch {
                throw Failed(step: "save", reason: error.message)
            }
        }
        return (added, note)
    }

    private func facts(_ row: ImportRow, _ title: MatchedTitle, job: ImportJob, number: Int) async throws -> Bool {
        let profile = job.profileID
        let saved = try title.savedTitle()
        var added = false
        let current = try await library.item(profile: profile, movieID: title.id, kind: title.kind)
        var change = LibraryChange()
        if row.liked || row.watchlist, current?.favorite != true { change.favorite = true }
        if title.kind == .movie, row.watched || row.watchedOn != nil, current?.watched != true { change.watched = true }
        if let rating = row.rating, Rating.range.contains(rating), rating != current?.rating, row.watchedOn == nil || current?.rating == nil {
            change.rating = rating
        }
        if change != LibraryChange() {
            do { _ = try await library.save(profile: profile, title: saved, change: change, logsWatch: false) } catch {
                throw Failed(step: "rating", reason: error.message)
            }
            added = true
        }
        if let day = row.watchedOn, try await logWatch(row, saved, day: day, job: job, number: number) { added = true }
        if row.watchedOn == nil, let day = row.markedWatchedOn, title.kind == .movie,
            try await diary.watches(profile: profile, kind: saved.kind, itemID: saved.itemID).isEmpty
        {
            // Watched on a known day and in no diary entry: the diary (and so the statistics) count it.
            do { _ = try await diary.log(profile: profile, title: saved, day: day, rating: nil, note: nil) } catch {
                throw Failed(step: "diary", reason: error.message)
            }
            added = true
        }
        if let name = row.list, try await addToList(named: name, saved, position: row.listPosition, note: row.review, profile: profile) {
            added = true
        }
        return added
    }

    /// A dated watch, once per row: a row whose watch is already there (as many watches of the
    /// title that day as earlier rows of this import account for) adds nothing. A review
    /// (Letterboxd's reviews.csv repeats a diary entry with its text) goes onto that day's watch
    /// (its text before the watch's own note) rather than logging it again.
    private func logWatch(_ row: ImportRow, _ saved: SavedTitle, day: String, job: ImportJob, number: Int) async throws -> Bool {
        let profile = job.profileID
        let sameDay = try await diary.watches(profile: profile, kind: saved.kind, itemID: saved.itemID).filter { $0.day == day }
        let note = Self.note(row)
        do {
            if let review = row.review?.trimmingCharacters(in: .whitespacesAndNewlines), !review.isEmpty, let watch = sameDay.first {
                guard !sameDay.contains(where: { $0.note?.contains(review) == true }) else { return false }
                let merged = Self.fitted([review, watch.note].compactMap { $0 }.joined(separator: "\n\n"))
                _ = try await diary.update(profile: profile, id: watch.id, day: day, rating: watch.rating ?? row.rating, note: merged)
                return true
            }
            let earlier = try await store.earlierWatches(job: job.id, before: number, kind: saved.kind, id: Int(saved.itemID) ?? 0, day: day)
            guard sameDay.count <= earlier else { return false }
            _ = try await diary.log(profile: profile, title: saved, day: day, rating: row.rating, note: note)
            return true
        } catch let error as LibraryError {
            throw Failed(step: "diary", reason: error.message)
        }
    }

    /// The watch's note: the review, then the tags (`#tag`), within the diary's limit.
    static func note(_ row: ImportRow) -> String? {
        let tags = row.tags.map { "#" + $0.replacingOccurrences(of: " ", with: "-") }.joined(separator: " ")
        let parts = [row.review?.trimmingCharacters(in: .whitespacesAndNewlines), tags].compactMap { $0 }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return nil }
        return fitted(parts.joined(separator: "\n\n"))
    }

    /// A note within the diary's limit: cut with "…" when longer.
    static func fitted(_ text: String) -> String {
        text.count <= LibraryService.noteLimit ? text : String(text.prefix(LibraryService.noteLimit - 1)) + "…"
    }

    /// Adds to the person's list of that name (made when there is none); true when it was not in.
    private func addToList(named name: String, _ title: SavedTitle, position: Int?, note: String?, profile: UUID) async throws -> Bool {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            let existing = try await lists.lists(profile: profile).first { $0.name.compare(wanted, options: [.caseInsensitive]) == .orderedSame }
            let list: CustomList
            if let existing { list = existing } else { list = try await lists.create(profile: profile, name: wanted, description: nil) }
            let note = note.map { String($0.prefix(LibraryService.noteLimit)) }
            if case .added = try await lists.add(profile: profile, id: list.id, title: title, position: position, note: note.map { Optional($0) }) {
                return true
            }
            return false
        } catch let error as CustomListError {
            throw Failed(step: "list", reason: error.message)
        }
    }
}
