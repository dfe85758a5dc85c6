import Foundation
import Synchronization
import Testing

@testable import App

/// On PostgreSQL a person's saves take the person's lock shared and the title's alone
/// (`AppDatabase.write(serializedBy:within:)`): saves of other titles go on while one title's
/// save is open, and a write of the whole person (a merge, an import) still waits for it.
@Suite(
    "PostgreSQL: one person's saves of different titles at once",
    .enabled(if: !(ProcessInfo.processInfo.environment["POPCORN_TEST_DATABASE_URL"] ?? "").isEmpty))
struct TitleLocksTests {
    @Test("another title's save ends while one title's is still open; a write of the whole person waits for it")
    func otherTitlesGoOn() async throws {
        try await TestApp.with { app in
            let cookie = try await app.visitor()
            let profile = try #require(try await app.profile(cookie))
            let database = app.services.database
            let order = Mutex<[String]>([])
            func title(_ id: String) -> SavedTitle {
                SavedTitle(kind: .movie, itemID: id, title: "Film \(id)", genre: nil, releaseDate: nil, artworkURL: nil, snapshot: Data())
            }
            let opened = AsyncStream<Void>.makeStream()
            // One title's save, held open for a second.
            let held = Task {
                try await database.write(serializedBy: "movie|1001", within: profile.uuidString) { _ in
                    opened.continuation.yield()
                    try await Task.sleep(for: .seconds(1))
                    order.withLock { $0.append("held title's save ended") }
                }
            }
            for await _ in opened.stream { break }
            _ = try await app.services.library.save(profile: profile, title: title("1002"), change: LibraryChange(favorite: true))
            order.withLock { $0.append("other title saved") }
            try await database.write(serializedBy: profile.uuidString) { _ in
                order.withLock { $0.append("write of the whole person") }
            }
            try await held.value
            #expect(
                order.withLock { $0 } == ["other title saved", "held title's save ended", "write of the whole person"])
        }
    }
}
