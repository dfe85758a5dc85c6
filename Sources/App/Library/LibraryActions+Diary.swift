import Foundation

/// What logging a watch came to; the pages and the API each answer it with one switch.
enum DiaryOutcome: Sendable {
    case logged(Watch)
    /// The day, rating or note is not acceptable: what to change. Nothing was written.
    case invalid(String)
    case titleNotFound
    case tooManyNewVisitors(retryAfter: Int)
    case storageFailed
}

/// A film or show as it is kept with a watch or a list item: what PopcornSwirl holds of it, else a
/// stand-in whose details the catalogue worker brings (never waiting on an upstream).
enum TitleResolution: Sendable {
    case found(SavedTitle)
    case notFound
    case failed
}

extension LibraryActions {
    func savedTitle(_ kind: MediaKind, _ id: Int, profile: UUID?) async -> TitleResolution {
        func saved(_ title: MatchedTitle, _ state: TitleState?) -> TitleResolution {
            guard var saved = try? title.savedTitle() else { return .failed }
            saved.state = state
            return .found(saved)
        }
        switch kind {
        case .movie:
            switch await titles.movieForSave(id, profile: profile) {
            case .found(let movie): return saved(.movie(movie), nil)
            case .pending(let movie): return saved(.movie(movie), .pending)
            case .notFound: return .notFound
            }
        case .show:
            switch await titles.showForSave(id, profile: profile) {
            case .found(let show): return saved(.show(show), nil)
            case .pending(let show): return saved(.show(show), .pending)
            case .notFound: return .notFound
            }
        }
    }

    /// Logs a watch of a film or show on `day` (today when nil): the title from the catalogue (or
    /// its saved snapshot), the day, rating and note checked before a profile is made or anything
    /// written.
    func logWatch(
        kind: MediaKind, id: Int, day: String?, rating: Int?, note: String?, profile: UUID?, writer: () async throws -> UUID
    ) async -> DiaryOutcome {
        let now = diary.clock.now()
        do {
            _ = try DiaryService.validatedDay(day ?? DiaryService.today(now), now: now)
            _ = try LibraryService.validatedRating(rating)
            _ = try LibraryService.validatedNote(note)
        } catch {
            return .invalid(error.message)
        }
        let title: SavedTitle
        switch await savedTitle(kind, id, profile: profile) {
        case .found(let found): title = found
        case .notFound: return .titleNotFound
        case .failed: return .storageFailed
        }
        do {
            let owner = try await writer()
            return .logged(try await diary.log(profile: owner, title: title, day: day ?? DiaryService.today(now), rating: rating, note: note))
        } catch let refused as VisitorThrottle.Refused {
            return .tooManyNewVisitors(retryAfter: refused.retryAfter)
        } catch let error as LibraryError {
            if case .storageFailed = error {
                logger.error("diary write failed", metadata: ["error": "\(error)"])
                return .storageFailed
            }
            return .invalid(error.message)
        } catch {
            logger.error("visitor creation failed", metadata: ["error": "\(error)"])
            return .storageFailed
        }
    }
}
