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
        if !started {
            skipSpace()
            if offset + 3 <= bytes.count, bytes[offset] == 0xEF, bytes[offset + 1] == 0xBB, bytes[offset + 2] == 0xBF { offset += 3 }
            skipSpace()
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "[") else { throw Malformed(offset: offset) }
            offset += 1
            started = true
            skipSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { return try end() }
        }
        skipSpace()
        let start = offset
        var depth = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                try skipString()
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
                offset += 1
            } else if depth > 0 {
                // Inside the element: a closing bracket ends a level, anything else is its content.
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
                offset += 1
            } else if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") {
                guard offset > start else { throw Malformed(offset: offset) }
                let element = bytes.subdata(in: start..<offset)
                if byte == UInt8(ascii: "]") { _ = try end() } else { offset += 1 }
                return element
            } else if byte == UInt8(ascii: "}") {
                throw Malformed(offset: offset)
            } else {
                offset += 1
            }
        }
        throw Malformed(offset: offset)
    }

    /// Past the closing bracket only space may follow.
    private mutating func end() throws -> Data? {
        offset += 1
        skipSpace()
        guard offset == bytes.count else { throw Malformed(offset: offset) }
        ended = true
        return nil
    }

    private mutating func skipString() throws {
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
        throw Malformed(offset: offset)
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }
}
