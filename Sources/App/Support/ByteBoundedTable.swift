/// A table bounded by the bytes of what it keeps: when a new entry would pass `maxBytes` the table
/// starts over (what it keeps is cheap to make again, and starting over needs no order to evict by).
struct ByteBoundedTable<Value> {
    let maxBytes: Int
    private var entries: [String: (value: Value, bytes: Int)] = [:]
    private var bytes = 0

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    subscript(key: String) -> Value? { entries[key]?.value }

    mutating func put(_ key: String, _ value: Value, bytes size: Int) {
        if bytes + size > maxBytes {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        bytes += size - (entries[key]?.bytes ?? 0)
        entries[key] = (value, size)
    }
}
