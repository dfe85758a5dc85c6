/// What JSON decoders let through and the API must not: an object giving one name twice (the
/// decoder keeps one of the values, silently) and a string holding a control character other than
/// tab, line feed and carriage return (`TextRules`). One pass over the body's bytes, nothing
/// decoded but the names; a body that is not JSON at all is left to the decoder's own error.
enum JSONTextCheck {
    enum Problem: Error, Equatable {
        case duplicateName(String)
        case controlCharacter

        var message: String {
            switch self {
            case .duplicateName(let name): "The JSON body gives “\(name.prefix(60))” twice in one object: give each name once."
            case .controlCharacter: TextRules.controlMessage
            }
        }
    }

    /// Nesting past this is left to the decoder (which refuses it).
    static let maxDepth = 64

    static func problem(in bytes: some Collection<UInt8>) -> Problem? {
        var scanner = Scanner(bytes: Array(bytes))
        return scanner.value(depth: 0)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var stopped = false

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// The first problem in the value at `index`, or nil (also when the JSON is malformed: the
        /// scan stops, and the decoder says what is wrong).
        mutating func value(depth: Int) -> Problem? {
            guard depth < JSONTextCheck.maxDepth, !stopped else { return stop() }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if closes(UInt8(ascii: "]")) { return nil }
                while index < bytes.count, !stopped {
                    if let problem = value(depth: depth + 1) { return problem }
                    skipSpace()
                    if closes(UInt8(ascii: "]")) { return nil }
                    guard next(UInt8(ascii: ",")) else { return nil }
                }
                return nil
            case UInt8(ascii: "\""):
                switch string() {
                case .failure(let problem): return problem
                case .success(nil): return stop()
                case .success: return nil
                }
            default:
                // A number, true, false or null: up to the next delimiter.
                while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                return nil
            }
        }

        mutating func object(depth: Int) -> Problem? {
            index += 1
            var names = Set<String>()
            skipSpace()
            if closes(UInt8(ascii: "}")) { return nil }
            while index < bytes.count, !stopped {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return stop() }
                let name: String
                switch string() {
                case .failure(let problem): return problem
                case .success(nil): return stop()
                case .success(let decoded?): name = decoded
                }
                guard names.insert(name).inserted else { return .duplicateName(name) }
                skipSpace()
                guard next(UInt8(ascii: ":")) else { return nil }
                if let problem = value(depth: depth + 1) { return problem }
                skipSpace()
                if closes(UInt8(ascii: "}")) { return nil }
                guard next(UInt8(ascii: ",")) else { return nil }
            }
            return nil
        }

        /// Consumes `bracket` when it is next.
        mutating func closes(_ bracket: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == bracket else { return false }
            index += 1
            return true
        }

        /// Consumes `separator`; otherwise the JSON is malformed and the scan stops.
        mutating func next(_ separator: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == separator else {
                stopped = true
                return false
            }
            index += 1
            return true
        }

        /// The JSON is malformed: nothing more is scanned (the decoder will say what is wrong).
        mutating func stop() -> Problem? {
            stopped = true
            return nil
        }

        /// The string at `index` (its opening quote), decoded; nil when malformed.
        mutating func string() -> Result<String?, Problem> {
            index += 1
            var scalars = String.UnicodeScalarView()
            var start = index
            func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars) }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush(index)
                    index += 1
                    return .success(String(scalars))
                }
                if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0D ? .success(nil) : .failure(.controlCharacter) }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flush(index)
                guard index + 1 < bytes.count else { return .success(nil) }
                let escape = bytes[index + 1]
                index += 2
                switch escape {
                case UInt8(ascii: "b"), UInt8(ascii: "f"): return .failure(.controlCharacter)
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
                    else { return .success(nil) }
                    index += 4
                    if let scalar = Unicode.Scalar(code) {
                        if TextRules.isForbiddenControl(scalar) { return .failure(.controlCharacter) }
                        scalars.append(scalar)
                    } else {
                        // Half of a surrogate pair: kept as written, enough to tell names apart.
                        scalars.append(contentsOf: "\\u\(String(code, radix: 16))".unicodeScalars)
                    }
                default: scalars.append(Unicode.Scalar(escape))
                }
                start = index
            }
            return .success(nil)
        }
    }
}
