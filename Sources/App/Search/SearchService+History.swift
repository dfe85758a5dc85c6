import Foundation

/// Recent searches (`SearchHistoryStore`), for the pages and the API alike.
extension SearchService {
    /// The search joins the person's recent searches (any answered search, results or none), and
    /// the list after it is returned. The newest search again within the hour is already on top:
    /// nothing is written (a read is far cheaper than a durable write, and pages are reloaded).
    @discardableResult
    public func recordInHistory(_ query: SearchQuery, profile: UUID) async throws -> [SearchHistoryEntry] {
        let now = clock.now()
        let recent = try await history.recent(profile: profile)
        if let newest = recent.first, newest.query.lowercased() == query.key, now.timeIntervalSince(newest.searchedAt) < 3600 {
            return recent
        }
        try await history.record(profile: profile, query: query, at: now)
        return try await history.recent(profile: profile)
    }

    /// The person's recent searches, newest first (none without a profile).
    public func recentSearches(profile: UUID?) async throws -> [SearchHistoryEntry] {
        try await history.recent(profile: profile)
    }

    /// Removes one of the person's recent searches; false when it is not theirs or not there.
    public func removeFromHistory(_ id: UUID, profile: UUID?) async throws -> Bool {
        let removed = try await history.remove(profile: profile, id: id)
        return removed
    }
}
