import Foundation
import Testing

@testable import App

@Suite("Declared caches")
struct DeclaredCacheTests {
    static func cache(budget: Int = 64 * 1024) -> DeclaredCache<Int, String> {
        DeclaredCache(CacheDeclaration(name: "test", keeps: "strings", budgetBytes: budget, staleWhen: "never"), metrics: nil)
    }

    @Test("a cache never holds more than its budget, and the most recently used survive")
    func bounded() {
        let cache = Self.cache()
        let text = String(repeating: "x", count: 1000)
        for key in 0..<500 { cache.put(key, text, bytes: 1000) }
        #expect(cache.values.count * 1000 <= 64 * 1024)
        #expect(cache.get(499) != nil, "the newest is kept")
        #expect(cache.get(0) == nil, "the oldest long gone")
        #expect(cache.statistics.evictions >= 400 && cache.statistics.hits == 1 && cache.statistics.misses == 1)
    }

    @Test("what a change removes is gone; a value loaded while entries were removed is handed out but not kept; nil is not kept")
    func removals() async {
        let cache = Self.cache()
        cache.put(1, "one", bytes: 3)
        cache.put(2, "two", bytes: 3)
        cache.remove { key, _ in key == 1 }
        #expect(cache.get(1) == nil && cache.get(2) == "two")
        let raced = await cache.loaded(3, bytes: \.utf8.count) {
            cache.remove()
            return "read before the change"
        }
        #expect(raced == "read before the change" && cache.get(3) == nil)
        #expect(await cache.loaded(3, bytes: \.utf8.count) { nil } == nil)
        #expect(await cache.loaded(3, bytes: \.utf8.count) { "three" } == "three" && cache.get(3) == "three")
    }
}
