import Foundation

/// The elements of a JSON array, each handed out as its own bytes, so a 16 MiB export file is
/// decoded one entry at a time instead of as one document (Foundation's decoder has no streaming
/// form, and no package that resolves here offers one). Only the array's shape is read here:
/// strings (with their escapes) and nesting are skipped over; each element's own JSON is checked
/// by the decoder it is handed to.
struct JSONArrayElements: Sequence, IteratorProtocol {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        var description: String { "not a JSON array at byte \(offset)" }
    }

    private let bytes: Data
    private var offset = 0
    private var started = false
    private var ended = false
    /// Set when the bytes are not an array of values: the iteration then stops.
    private(set) var failure: Malformed?

    /// `data` is read in place (rebased to start at 0 when it is a slice).
    init(_ data: Data) { bytes = data.startIndex == 0 ? data : Data(data) }

    mutating func next() -> Data? {
        guard failure == nil, !ended else { return nil }
        do { return try element() } catch {
            failure = error as? Malformed ?? Malformed(offset: offset)
            return nil
        }
    }

    private mutating func element() throws -> Data? {
        var scan = JSONScan(bytes: bytes, offset: offset)
        defer { offset = scan.offset }
        if !started {
            scan.skipSpace()
            if scan.offset + 3 <= bytes.count, bytes[scan.offset] == 0xEF, bytes[scan.offset + 1] == 0xBB, bytes[scan.offset + 2] == 0xBF {
                scan.offset += 3
            }
            scan.skipSpace()
            guard scan.offset < bytes.count, bytes[scan.offset] == UInt8(ascii: "[") else { throw Malformed(offset: scan.offset) }
            scan.offset += 1
            started = true
            scan.skipSpace()
            if scan.offset < bytes.count, bytes[scan.offset] == UInt8(ascii: "]") { return try end(&scan) }
        }
        let value = try scan.value(closer: UInt8(ascii: "]"))
        if bytes[scan.offset] == UInt8(ascii: "]") { _ = try end(&scan) } else { scan.offset += 1 }
        return bytes.subdata(in: value)
    }

    /// Past the closing bracket only space may follow.
    private mutating func end(_ scan: inout JSONScan) throws -> Data? {
        scan.offset += 1
        scan.skipSpace()
        guard scan.offset == bytes.count else { throw Malformed(offset: scan.offset) }
        ended = true
        return nil
    }

    /// The members of a JSON object (a Simkl backup's `shows`, `anime` and `movies`), each value as
    /// its own bytes, read the same way: the object's shape only, each value checked by its reader.
    static func objectMembers(_ data: Data) throws -> [(key: String, value: Data)] {
        let bytes = data.startIndex == 0 ? data : Data(data)
        var scan = JSONScan(bytes: bytes, offset: 0)
        scan.skipSpace()
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scan.offset = 3 }
        scan.skipSpace()
        guard scan.offset < bytes.count, bytes[scan.offset] == UInt8(ascii: "{") else { throw Malformed(offset: scan.offset) }
        scan.offset += 1
        var members: [(key: String, value: Data)] = []
        while true {
            scan.skipSpace()
            guard scan.offset < bytes.count else { throw Malformed(offset: scan.offset) }
            if members.isEmpty, bytes[scan.offset] == UInt8(ascii: "}") {
                scan.offset += 1
                break
            }
            guard bytes[scan.offset] == UInt8(ascii: "\"") else { throw Malformed(offset: scan.offset) }
            let keyStart = scan.offset
            try scan.skipString()
            guard let key = try? JSONDecoder().decode(String.self, from: bytes.subdata(in: keyStart..<scan.offset)) else {
                throw Malformed(offset: keyStart)
            }
            scan.skipSpace()
            guard scan.offset < bytes.count, bytes[scan.offset] == UInt8(ascii: ":") else { throw Malformed(offset: scan.offset) }
            scan.offset += 1
            let value = try scan.value(closer: UInt8(ascii: "}"))
            members.append((key, bytes.subdata(in: value)))
            let closed = bytes[scan.offset] == UInt8(ascii: "}")
            scan.offset += 1
            if closed { break }
        }
        scan.skipSpace()
        guard scan.offset == bytes.count else { throw Malformed(offset: scan.offset) }
        return members
    }
}

/// A place in JSON bytes, and the steps both readers take over them.
private struct JSONScan {
    let bytes: Data
    var offset: Int

    /// The bytes of the value here (space around it left out), stopping at the `,` or `closer` that
    /// ends it at this level; `offset` is left on that byte.
    mutating func value(closer: UInt8) throws -> Range<Int> {
        skipSpace()
        let start = offset
        var depth = 0
        var last = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                try skipString()
                last = offset
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
                offset += 1
            } else if depth > 0 {
                // Inside the value: a closing bracket ends a level, anything else is its content.
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
                offset += 1
                last = offset
            } else if byte == UInt8(ascii: ",") || byte == closer {
                guard last > start else { throw JSONArrayElements.Malformed(offset: offset) }
                return start..<last
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                throw JSONArrayElements.Malformed(offset: offset)
            } else {
                offset += 1
                if ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { last = offset }
            }
        }
        throw JSONArrayElements.Malformed(offset: offset)
    }

    mutating func skipString() throws {
        offset += 1
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\\"): offset += 2
            case UInt8(ascii: "\""):
                offset += 1
                return
            default: offset += 1
            }
        }
        throw JSONArrayElements.Malformed(offset: offset)
    }

    mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }
}
