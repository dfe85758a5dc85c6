import Foundation

/// Puts what a matched row says into the person's lists, each fact only when it is not there
/// already, so a second import of the same file adds nothing:
/// - a rating (of the title; a diary row's rating is its watch's, and the title's when it has none);
/// - liked → Favorite; watched (dated or not) → Watched, for films (shows have no Watched list);
/// - a dated watch → the diary, with the review and tags as its note (a title watched twice on a
///   day in the file is logged twice, once per row);
/// - a day it was marked watched (Letterboxd's watched.csv) → a watch that day, when the diary has
///   none of the film, so the diary and the statistics count every watched film with a date;
/// - the watchlist → the custom list "Watchlist"; a named list → that list, at its place.
struct ImportLanding: Sendable {
    static let watchlistName = "Watchlist"

    let library: LibraryService
    let diary: DiaryService
    let lists: CustomListService
    let store: ImportStore

    private struct Failed: Error {
        var step: String
        var reason: String
    }

    func land(_ row: ImportRow, as title: MatchedTitle, how: String, job: ImportJob, number: Int) async -> RowSettlement {
        do {
            let added = try await facts(row, title, job: job, number: number)
            return RowSettlement(
                state: added ? .landed : .skipped, step: "match", reason: added ? nil : "Already in your lists.", title: title, how: how)
        } catch let failed as Failed {
            return RowSettlement(state: .failed, step: failed.step, reason: failed.reason, title: title, how: how)
        } catch {
            return RowSettlement(state: .failed, step: "save", reason: LibraryError.storageFailed("").message, title: title, how: how)
        }
    }

    private func facts(_ row: ImportRow, _ title: MatchedTitle, job: ImportJob, number: Int) async throws -> Bool {
        let profile = job.profileID
        let saved = try title.savedTitle()
        var added = false
        let current = try await library.item(profile: profile, movieID: title.id, kind: title.kind)
        var change = LibraryChange()
        if row.liked, current?.favorite != true { change.favorite = true }
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
        if row.watchlist, try await addToList(named: Self.watchlistName, saved, position: nil, note: nil, profile: profile) { added = true }
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
