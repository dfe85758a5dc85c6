import Foundation
import PopcornSwirlAPI
import Synchronization
import Testing

@testable import PopcornSwirlKit

/// The sync engine against a server in memory (`FakeAPI`) and a store in memory: the outbox sent
/// exactly once whatever fails, conflicts settled by the server's rule, refusals kept, the feed
/// read page by page.
@Suite("Sync")
struct SyncEngineTests {
    let api = FakeAPI()
    let store: KitStore
    let clock = Clock()

    init() throws { store = try KitStore.inMemory() }

    final class Clock: Sendable {
        let value = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
        func now() -> Date { value.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { value.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    var engine: SyncEngine {
        let clock = clock
        return SyncEngine(api: api, store: store, now: { clock.now() })
    }

    func record(_ change: PendingChange) throws {
        try store.record(change, card: TitleCard(kind: .movie, id: 1, title: "Film"), madeAt: clock.now())
        clock.advance(1)
    }

    @Test("changes made offline wait; each is done once on the server though a try was lost on the way and one answer never came back")
    func exactlyOnce() async throws {
        try record(.movie(id: 1001, favorite: true, watched: nil, note: nil, rating: nil))
        try record(.movie(id: 1002, favorite: nil, watched: true, note: "Loved it", rating: nil))
        try record(.episode(id: 12301, showId: 139, watched: true))
        #expect(try store.titles(.combined).map(\.id) == [1001, 1002], "shown at once, from the device")

        api.fail(.unreachable)
        var report = await engine.sync()
        #expect(!report.reachedServer && report.sent == 0)
        #expect(try store.waiting().count == 3)

        // The first change is done but its answer is lost: it stays waiting, and is not done twice.
        api.fail(.answerLost)
        report = await engine.sync()
        #expect(try !report.reachedServer && store.waiting().count == 3)
        report = await engine.sync()
        #expect(report.reachedServer && report.sent == 3 && report.refused.isEmpty)
        #expect(try store.waiting().isEmpty && store.refused().isEmpty)
        let applied = api.state.withLock { $0.applied }
        #expect(applied.count == 3 && applied.values.allSatisfy { $0 == 1 }, "each key done once: \(applied)")
        #expect(api.state.withLock { $0.calls }.contains("putLibraryMovie (replayed)"))
        #expect(api.state.withLock { $0.titles[1002]?.note } == "Loved it")
        #expect(try store.episodes(show: 139)[12301]?.watchCount == 1)

        // Nothing left: a sync sends nothing.
        report = await engine.sync()
        #expect(report.sent == 0 && report.reachedServer)
    }

    @Test("the newer change by when it was made wins: an older one of the device's is dropped for the server's, a newer one applies")
    func conflicts() async throws {
        let made = clock.now()
        try record(.movie(id: 1001, favorite: true, watched: nil, note: "mine, older", rating: nil))
        // Another device changed the film after that, and synced first.
        api.serverChange(movie: 1001, favorite: false, note: "theirs, newer", at: made.addingTimeInterval(30))
        var report = await engine.sync()
        #expect(report.superseded == 1 && report.sent == 0 && report.refused.isEmpty)
        #expect(try store.waiting().isEmpty && store.refused().isEmpty)
        #expect(try store.title(.movie, 1001)?.note == "theirs, newer", "the server's newer state")

        clock.advance(60)
        try record(.movie(id: 1001, favorite: nil, watched: nil, note: "mine, newest", rating: nil))
        report = await engine.sync()
        #expect(report.sent == 1 && report.superseded == 0)
        #expect(api.state.withLock { $0.titles[1001]?.note } == "mine, newest")
        #expect(try store.title(.movie, 1001)?.note == "mine, newest")
    }

    @Test("a change the server refuses is kept as refused with its reason, not sent again by itself, and can be retried or dropped")
    func refused() async throws {
        try record(.movie(id: 1001, favorite: nil, watched: true, note: String(repeating: "a", count: 2001), rating: nil))
        try record(.movie(id: 1002, favorite: true, watched: nil, note: nil, rating: nil))
        var report = await engine.sync()
        #expect(report.refused == ["The note is longer than 2,000 characters."] && report.sent == 1)
        let kept = try store.refused()
        #expect(kept.count == 1 && kept.first?.message == "The note is longer than 2,000 characters.")
        report = await engine.sync()
        #expect(report.sent == 0 && report.refused.isEmpty, "not sent again by itself")
        #expect(api.state.withLock { $0.calls.filter { $0 == "putLibraryMovie" }.count } == 2)
        // The person drops it: it leaves the outbox, and the device shows the server's state.
        try store.discard(kept[0].key)
        #expect(try store.refused().isEmpty)
    }

    @Test("the feed is read page by page from the cursor; removals remove; a change still waiting is not overwritten")
    func pull() async throws {
        let at = clock.now()
        for id in Int64(1)...Int64(1_200) { api.serverChange(movie: id, favorite: true, at: at) }
        var report = await engine.sync()
        #expect(report.pulled == 1_200 && report.reachedServer)
        #expect(try store.titles(.favorites).count == 1_200)
        let cursor = try store.cursor()
        #expect(api.state.withLock { $0.calls.filter { $0 == "listChanges" }.count } == 3, "500 a page")

        // The server removes one; the device has a newer change of another waiting, and is offline for it.
        _ = try await api.deleteLibraryMovie(path: .init(id: 7), headers: .init())
        api.serverChange(movie: 8, note: "server", at: at)
        clock.advance(120)
        try record(.movie(id: 8, favorite: nil, watched: nil, note: "device", rating: nil))
        api.fail(.unreachable)
        report = await engine.sync()
        #expect(try !report.reachedServer && store.cursor() == cursor, "nothing read while the outbox cannot go")
        #expect(try store.title(.movie, 8)?.note == "device")
        report = await engine.sync()
        #expect(report.sent == 1 && report.reachedServer)
        #expect(try store.title(.movie, 7) == nil)
        #expect(try store.title(.movie, 8)?.note == "device")
        #expect(try store.cursor() != cursor)
    }

    @Test("the store keeps its data when opened again, its migrations numbered")
    func reopened() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kit-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try KitStore(path: path)
            try store.record(.movie(id: 5, favorite: true, watched: nil, note: nil, rating: nil), card: nil, madeAt: Date())
        }
        let again = try KitStore(path: path)
        #expect(try again.appliedMigrations() == ["v1"])
        #expect(try again.titles(.favorites).map(\.id) == [5] && again.waiting().count == 1)
    }
}
