import Foundation

/// A film or show as the pages and the API show it, and as a save writes it.
///
/// A page: the catalogue (or its cache) for a title the person has not saved; for a saved one,
/// the catalogue's copy while it is fresh, else the saved copy at once (marked with the day it was
/// saved) while the background worker asks for a fresh one; the local title index when the
/// upstream cannot be asked. A save never waits on an upstream: it takes what PopcornSwirl holds
/// (a kept answer, the person's saved copy, the title index, the bundled catalogue), and a title
/// known nowhere is saved with its details to come (`TitleState.pending`).
struct TitleLookup: Sendable {
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let library: LibraryService
    let kept: KeptFilms
    let index: TitleIndex

    var requests: CatalogRequests { catalog.requests }

    func movie(_ id: Int, profile: UUID?) async -> MovieLookup {
        if KeptFilms.imdbID(of: id) != nil {
            // A film iTunes lacks, kept by an import: never asked of iTunes.
            if let film = try? await kept.film(id: id) { return .found(film, .kept) }
            if let snapshot = try? await library.snapshot(profile: profile, movieID: id) { return .found(snapshot.movie, .kept) }
            return .notFound
        }
        if profile != nil, let snapshot = try? await library.snapshot(profile: profile, movieID: id) {
            if let fresh = await catalog.fresh(id: id) { return .found(fresh.movie, .live(fetchedAt: fresh.fetchedAt)) }
            if let indexed = try? await index.freshMovie(id: id, within: MovieCatalog.lookupFreshness) {
                return .found(indexed.movie, .live(fetchedAt: indexed.indexedAt))
            }
            await requests.ask(.movie, String(id))
            return .found(snapshot.movie, .saved(on: snapshot.savedAt))
        }
        let lookup = await catalog.movie(id: id)
        if case .unavailable = lookup, let indexed = try? await index.movie(id: id) { return .found(indexed, .local) }
        return lookup
    }

    func show(_ id: Int, profile: UUID?) async -> ShowLookup {
        let lookup = await shows.show(id: id)
        guard case .unavailable = lookup else { return lookup }
        if let snapshot = try? await library.showSnapshot(profile: profile, showID: id) {
            await requests.ask(.show, String(id))
            return .found(snapshot.show, .saved(on: snapshot.savedAt))
        }
        if let indexed = try? await index.show(id: id) { return .found(indexed, .local) }
        return lookup
    }

    /// The film a save by id writes, without asking iTunes; `.notFound` only when iTunes said so before.
    /// The largest ids there are: iTunes' track ids have at most 11 digits (kept films' too), TVMaze's
    /// show ids 8 (`openapi.yaml` says so). A save by id past them is not taken on faith.
    static let maxMovieID = 99_999_999_999
    static let maxShowID = 99_999_999

    func movieForSave(_ id: Int, profile: UUID?) async -> TitleForSave<Movie> {
        guard (1...Self.maxMovieID).contains(id) else { return .notFound }
        if KeptFilms.imdbID(of: id) != nil {
            switch await movie(id, profile: profile) {
            case .found(let film, _): return .found(film)
            default: return .notFound
            }
        }
        switch await catalog.known(id: id) {
        case .found(let movie, _): return .found(movie)
        case .notFound: return .notFound
        case .unavailable, nil: break
        }
        if let indexed = try? await index.movie(id: id) { return .found(indexed) }
        if let snapshot = try? await library.snapshot(profile: profile, movieID: id) {
            // A stand-in saved before stays one until the worker has the details.
            guard (try? await library.item(profile: profile, movieID: id))??.titleState != nil else { return .found(snapshot.movie) }
            await requests.ask(.movie, String(id))
            return .pending(snapshot.movie)
        }
        await requests.ask(.movie, String(id))
        return .pending(Movie(id: id, title: "iTunes film \(id)"))
    }

    /// The show a save by id writes, without asking TVMaze.
    func showForSave(_ id: Int, profile: UUID?) async -> TitleForSave<Show> {
        guard (1...Self.maxShowID).contains(id) else { return .notFound }
        switch await shows.known(id: id) {
        case .found(let show, _): return .found(show)
        case .notFound: return .notFound
        case .unavailable, nil: break
        }
        if let indexed = try? await index.show(id: id) { return .found(indexed) }
        if let snapshot = try? await library.showSnapshot(profile: profile, showID: id) {
            guard (try? await library.item(profile: profile, movieID: id, kind: .show))??.titleState != nil else { return .found(snapshot.show) }
            await requests.ask(.show, String(id))
            return .pending(snapshot.show)
        }
        await requests.ask(.show, String(id))
        return .pending(Show(id: id, name: "TVMaze show \(id)"))
    }

    /// A film or show by kind and id as PopcornSwirl holds it (never asking an upstream): an
    /// import's chosen candidate, which a search showed. One known nowhere is `.unavailable`.
    func title(_ kind: MediaKind, _ id: Int, profile: UUID?) async -> TitleFound {
        switch kind {
        case .movie:
            switch await movieForSave(id, profile: profile) {
            case .found(let movie): .found(.movie(movie))
            case .pending: .unavailable
            case .notFound: .notFound
            }
        case .show:
            switch await showForSave(id, profile: profile) {
            case .found(let show): .found(.show(show))
            case .pending: .unavailable
            case .notFound: .notFound
            }
        }
    }
}

/// What a save by id writes: the title as PopcornSwirl holds it, a stand-in whose details the
/// background worker is asking for, or nothing (the catalogue answered it has no such title).
enum TitleForSave<Title: Sendable>: Sendable {
    case found(Title)
    case pending(Title)
    case notFound
}

/// What `TitleLookup.title` came to.
enum TitleFound: Sendable {
    case found(MatchedTitle)
    case notFound
    case unavailable
}

/// A film or show of the catalogue, whole: what an import row is matched to, and what a
/// person's pages and imports save.
enum MatchedTitle: Sendable, Equatable {
    case movie(Movie)
    case show(Show)

    var kind: MediaKind { if case .movie = self { .movie } else { .show } }
    var id: Int {
        switch self {
        case .movie(let movie): movie.id
        case .show(let show): show.id
        }
    }
    var name: String {
        switch self {
        case .movie(let movie): movie.title
        case .show(let show): show.name
        }
    }

    func savedTitle() throws -> SavedTitle {
        switch self {
        case .movie(let movie): try movie.savedTitle()
        case .show(let show): try show.savedTitle()
        }
    }

    func snapshot() throws -> Data {
        switch self {
        case .movie(let movie): try JSONEncoder().encode(movie)
        case .show(let show): try JSONEncoder().encode(show)
        }
    }

    init?(kind: MediaKind, snapshot: Data) {
        switch kind {
        case .movie:
            guard let movie = try? JSONDecoder().decode(Movie.self, from: snapshot) else { return nil }
            self = .movie(movie)
        case .show:
            guard let show = try? JSONDecoder().decode(Show.self, from: snapshot) else { return nil }
            self = .show(show)
        }
    }
}
