import Crypto
import Foundation
import NIOCore
import Synchronization

/// Rendered pages of one visitor's lists, reused while that visitor's `LibraryVersions` counter is
/// unchanged. Writes in this process invalidate at once; `maxAge` bounds how long a page can miss
/// a write made by another instance sharing the same PostgreSQL database.
final class PersonalPageCache: Sendable {
    struct Entry {
        /// Whose lists the page shows, when the key does not say (a shared list's page).
        let owner: UUID?
        let version: UInt64
        let storedAt: Date
        let page: Page
    }

    /// A rendered page and the listing its sponsored slots are filled for.
    struct Page: Sendable {
        let parts: PageParts
        let listing: ListingContext
        /// A strong validator of the page's bytes, for pages shared caches may keep (nil otherwise).
        let etag: String?
    }

    let maxAge: TimeInterval
    let clock: any AppClock
    let rendering = SingleFlight<String, Page, any Error>()
    private let state: Mutex<ByteBoundedTable<Entry>>

    init(maxBytes: Int = 8 * 1024 * 1024, maxAge: TimeInterval = 2, clock: any AppClock) {
        state = Mutex(ByteBoundedTable(maxBytes: maxBytes))
        self.maxAge = maxAge
        self.clock = clock
    }

    /// A page stored with its `owner`, while that owner's counter in `versions` is unchanged.
    func get(_ key: String, versions: LibraryVersions) -> Page? {
        guard let owner = state.withLock({ $0[Self.scoped(key)]?.owner }) else { return nil }
        return get(key, version: versions.current(owner))
    }

    /// Keys are kept per signed-in name too: the page's header says who is signed in, and a person
    /// without lists shares the pages of everyone without lists (`LibraryVersions.owner`).
    static func scoped(_ key: String) -> String { (RequestScope.signedInAs.map { "@\($0)|" } ?? "") + key }

    func get(_ key: String, version: UInt64) -> Page? {
        let key = Self.scoped(key)
        let now = clock.now()
        return state.withLock { state in
            guard let entry = state[key], entry.version == version, now.timeIntervalSince(entry.storedAt) < maxAge else {
                return nil
            }
            return entry.page
        }
    }

    /// One person's page at their current `version` (of everything, or of their watches alone for
    /// a page made only of them): the stored one, else rendered once for every request that asks
    /// meanwhile and stored (pages without sponsored cards: the diary, statistics). The version is
    /// read before rendering: a write that lands meanwhile bumps it, so the page rendered from
    /// older rows is not reused.
    func page(
        _ key: String, version: UInt64, listing name: String, render: @escaping @Sendable () async throws -> String
    ) async throws -> Page {
        try await page(key, version: version) { (try await render(), ListingContext(items: [], kind: nil, key: nil, name: name)) }
    }

    /// The same for a page with sponsored slots: `render` gives the page and the listing its cards
    /// are chosen for (made only on a miss).
    func page(
        _ key: String, version: UInt64, render: @escaping @Sendable () async throws -> (html: String, listing: ListingContext)
    ) async throws -> Page {
        if let cached = get(key, version: version) { return cached }
        let rendered = await rendering.run("\(Self.scoped(key))|\(version)") { [self] in
            do {
                let (html, listing) = try await render()
                return .success(put(key, version: version, html: html, listing: listing))
            } catch {
                return .failure(error)
            }
        }
        return try rendered.get()
    }

    /// Stores a page; when the byte budget is spent the cache starts over (pages are cheap to redo).
    func put(_ key: String, version: UInt64, html: String, listing: ListingContext, owner: UUID? = nil, etag: Bool = false) -> Page {
        let validator = etag ? "\"" + Hex.string(TextDigest.sha256(html).prefix(16)) + "\"" : nil
        let page = Page(parts: PageParts(html, cached: true), listing: listing, etag: validator)
        let size = html.utf8.count
        let entry = Entry(owner: owner, version: version, storedAt: clock.now(), page: page)
        state.withLock { $0.put(Self.scoped(key), entry, bytes: size) }
        return page
    }
}
