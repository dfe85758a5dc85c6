import Foundation

/// A film or show as the pages and the API show it: from the catalogue (or its cache), else the
/// snapshot saved with the person's lists, so a saved title still opens when the upstream cannot
/// be reached.
struct TitleLookup: Sendable {
    let catalog: MovieCatalog
    let shows: ShowCatalog
    let library: LibraryService

    func movie(_ id: Int, profile: UUID?) async -> MovieLookup {
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
}
