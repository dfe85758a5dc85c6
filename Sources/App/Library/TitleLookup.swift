import Foundation

/// A film or show as the pages and the API show it: from the catalogue (or its cache), else the
/// snapshot saved with the person's lists, so a saved title still opens when the upstream cannot
/// be reached.
struct TitleLookup: Sendable {
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let library: LibraryService
    let kept: KeptFilms

    func movie(_ id: Int, profile: UUID?) async -> MovieLookup {
        if KeptFilms.imdbID(of: id) != nil {
            // A film iTunes lacks, kept by an import: never asked of iTunes.
            if let film = try? await kept.film(id: id) { return .found(film, .kept) }
            if let snapshot = try? await library.snapshot(profile: profile, movieID: id) { return .found(snapshot.movie, .kept) }
            return .notFound
        }
        let lookup = await catalog.movie(id: id)
        if case .unavailable = lookup, let snapshot = try? await library.snapshot(profile: profile, movieID: id) {
            return .found(snapshot.movie, .stale(savedOn: snapshot.savedAt))
        }
        return lookup
    }

    func show(_ id: Int, profile: UUID?) async -> ShowLookup {
        let lookup = await shows.show(id: id)
        if case .unavailable = lookup, let snapshot = try? await library.showSnapshot(profile: profile, showID: id) {
            return .found(snapshot.show, .stale(savedOn: snapshot.savedAt))
        }
        return lookup
    }

    /// A film or show by kind and id: found, or why not.
    func title(_ kind: MediaKind, _ id: Int, profile: UUID?) async -> TitleFound {
        switch kind {
        case .movie:
            switch await movie(id, profile: profile) {
            case .found(let movie, _): .found(.movie(movie))
            case .notFound: .notFound
            case .unavailable: .unavailable
            }
        case .show:
            switch await show(id, profile: profile) {
            case .found(let show, _): .found(.show(show))
            case .notFound: .notFound
            case .unavailable: .unavailable
            }
        }
    }
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
