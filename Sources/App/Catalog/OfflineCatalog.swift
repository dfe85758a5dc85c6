import Foundation

/// The bundled catalogue: iTunes search responses shipped in `Resources/catalog`, decoded by the
/// same code as live answers. Used when iTunes cannot be reached and nothing is cached.
public struct OfflineCatalog: Sendable {
    public let moviesByYear: [Int: [Movie]]
    let moviesByID: [Int: Movie]
    /// Each film with its title folded once (folding 216 titles on every search was 6 % of an
    /// uncached search page's CPU).
    let folded: [(title: String, movie: Movie)]

    public init(movies: [Movie]) {
        var byYear: [Int: [Movie]] = [:]
        for movie in movies {
            guard let year = movie.year else { continue }
            byYear[year, default: []].append(movie)
        }
        moviesByYear = byYear.mapValues { $0.sortedNewestFirst() }
        moviesByID = Dictionary(movies.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        folded = moviesByID.values.map { (SearchQuery.fold($0.title), $0) }
    }

    /// Loads every `movies-*.json` file of the bundled catalogue.
    public static func bundled() throws -> OfflineCatalog {
        guard let directory = Bundle.module.url(forResource: "catalog", withExtension: nil, subdirectory: "Resources") else {
            return OfflineCatalog(movies: [])
        }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("movies-") && $0.pathExtension == "json" }
        var movies: [Movie] = []
        for file in files {
            movies += try ITunesDecoder.movies(from: Data(contentsOf: file))
        }
        return OfflineCatalog(movies: movies)
    }

    public func movies(year: Int) -> [Movie] { moviesByYear[year] ?? [] }
    public func movie(id: Int) -> Movie? { moviesByID[id] }
    public var count: Int { moviesByID.count }

    /// Films whose title contains the text (case and accents ignored), newest first.
    public func search(_ text: String) -> [Movie] {
        let wanted = SearchQuery.fold(text)
        guard !wanted.isEmpty else { return [] }
        return folded.filter { $0.title.contains(wanted) }.map(\.movie).sortedNewestFirst()
    }
}
