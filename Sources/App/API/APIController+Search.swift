import Foundation
import OpenAPIRuntime
import PopcornAPI

/// The Search part of JSON API v1, over the same service as the Search screen.
extension APIController {
    func searchTitles(_ input: Operations.SearchTitles.Input) async throws -> Operations.SearchTitles.Output {
        let query: SearchQuery
        // The schema's maxLength counts code points of the value as sent, before cleaning.
        guard input.query.q.unicodeScalars.count <= SearchQuery.maxLength else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("q must be at most \(SearchQuery.maxLength) characters."))))
        }
        do {
            query = try SearchQuery(input.query.q)
        } catch {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest(error.message))))
        }
        let result: SearchResult
        switch await search.search(query) {
        case .failed(let error):
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(SearchTexts.failure(error)))))
        case .results(let found):
            result = found
        }
        var remembered = false
        // A read writes nothing new: only a caller with a profile (a session or a token) has the
        // search remembered; a search never starts a visitor.
        if let profile = APIScope.session?.profileID {
            do {
                try await search.recordInHistory(query, profile: profile)
            } catch {
                logger.error("recording the search in the history failed", metadata: ["error": "\(error)"])
            }
        }
        if result.isRememberable, let profile = APIScope.session?.profileID {
            do {
                try await search.remember(result, profile: profile)
                remembered = true
            } catch {
                logger.error("remembering the search failed", metadata: ["error": "\(error)"])
            }
        }
        let bestMatch = try await result.bestMatch.asyncMap { try await match($0, details: result.omdb?.details) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        query: result.query, source: .init(result.source), bestMatch: bestMatch,
                        omdb: result.omdb.map(Components.Schemas.OMDbState.init),
                        movies: result.otherMovies.map(Components.Schemas.Movie.init), shows: result.shows.map(Components.Schemas.Show.init),
                        showSource: .init(result.showSource), remembered: remembered
                    ))))
    }

    func getLastSearch(_ input: Operations.GetLastSearch.Input) async throws -> Operations.GetLastSearch.Output {
        guard let profile = APIScope.session?.existing else {
            return .unauthorized(APIRefusal.signInResponse)
        }
        let last: LastSearch?
        do {
            last = try await search.last(profile: profile)
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable("Your last search could not be loaded just now."))))
        }
        guard let last else {
            return .notFound(.init(body: .applicationProblemJson(.notFound("No search yet: search for a title with /api/v1/search?q=."))))
        }
        return .ok(
            .init(body: .json(.init(query: last.query, searchedAt: last.searchedAt, match: try await match(last.movie, details: last.details)))))
    }

    func listRecentSearches(_ input: Operations.ListRecentSearches.Input) async throws -> Operations.ListRecentSearches.Output {
        guard let profile = APIScope.session?.existing else {
            return .unauthorized(APIRefusal.signInResponse)
        }
        do {
            let entries = try await search.recentSearches(profile: profile)
            return .ok(
                .init(
                    body: .json(.init(searches: entries.map { .init(id: $0.id.uuidString.lowercased(), query: $0.query, searchedAt: $0.searchedAt) }))
                ))
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable("Your recent searches could not be loaded just now."))))
        }
    }

    func deleteRecentSearch(_ input: Operations.DeleteRecentSearch.Input) async throws -> Operations.DeleteRecentSearch.Output {
        guard let profile = APIScope.session?.existing else {
            return .unauthorized(APIRefusal.signInResponse)
        }
        guard let id = UUID(uuidString: input.path.id) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("id must be the id of one of your recent searches."))))
        }
        do {
            guard try await search.removeFromHistory(id, profile: profile) else {
                return .notFound(.init(body: .applicationProblemJson(.notFound("That search is not among your recent searches."))))
            }
            return .noContent(.init())
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable("The search could not be removed just now; try again."))))
        }
    }

    private func match(_ movie: Movie, details: OMDbDetails?) async throws -> Components.Schemas.SearchMatch {
        let saved = try? await library.item(profile: APIScope.session?.profileID, movieID: movie.id)
        return .init(
            movie: .init(movie), details: details.map(Components.Schemas.OMDbDetails.init),
            library: saved.flatMap { $0 }.map { .init(favorite: $0.favorite, watched: $0.watched, note: $0.note) }
        )
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

extension Components.Schemas.OMDbDetails {
    init(_ details: App.OMDbDetails) {
        self.init(
            imdbId: details.imdbID, imdbUrl: details.imdbURL, title: details.title, year: details.year, rated: details.rated,
            released: details.released, runtime: details.runtime, genre: details.genre, director: details.director,
            writer: details.writer, actors: details.actors, plot: details.plot, imdbRating: details.imdbRating,
            imdbVotes: details.imdbVotes, _type: details.type
        )
    }
}

extension Components.Schemas.OMDbState {
    init(_ status: OMDbStatus) {
        let message = SearchTexts.omdb(status)
        switch status {
        case .disabled: self.init(status: .disabled, message: message)
        case .found: self.init(status: .found, message: message)
        case .notFound: self.init(status: .notFound, message: message)
        case .failed: self.init(status: .failed, message: message)
        case .limitReached: self.init(status: .limitReached, message: message)
        }
    }
}
