import Foundation
import ZIPFoundation

/// Where an upload came from, read from its bytes and name, never trusted from the form.
public enum ImportSource: String, Sendable, Equatable {
    case letterboxd, imdb, trakt, popcornswirl
}

/// Opens an upload (a Letterboxd or Trakt ZIP, an IMDb or Letterboxd CSV, a PopcornSwirl
/// backup) and hands its rows over one file at a time, so a large export is never held whole as
/// rows. A ZIP is read within caps that a crafted archive cannot get past: each member read at
/// most 16 MiB unpacked and at most `maxRatio` times its packed size, all of them 256 MiB, counted
/// while decompressing (the sizes an archive declares can lie); members that are not read are never
/// decompressed. Every line read counts toward the upload's 200,000 (`LineBudget`), blank ones
/// too: 20 members of blank lines cost 56 s of CPU before they were refused.
public enum ImportReader {
    public static let memberLimit = 16 << 20
    public static let totalLimit = 256 << 20
    public static let maxMembers = 20_000
    /// Exports are text that packs 3 to 20 times; far more is a crafted archive. Checked once a
    /// member has unpacked `ratioGrace` bytes, so a tiny member's header does not trip it.
    static let maxRatio = 100
    static let ratioGrace = 1 << 20
    /// Rows handed on at a time: a CSV file's rows are read, stored and let go in parts this size.
    static let partSize = 2000

    private struct TooLarge: Error {}
    private struct TooPacked: Error {}

    /// The upload's source, then each file's rows (`each` is called once per file read).
    @discardableResult
    public static func read(_ data: Data, named name: String, each: (ImportRead) async throws -> Void) async throws -> ImportSource {
        try await read(data, named: name, limits: (memberLimit, totalLimit), each: each)
    }

    static func read(_ data: Data, named name: String, limits: (member: Int, total: Int), each: (ImportRead) async throws -> Void) async throws
        -> ImportSource
    {
        try await LineBudget.$current.withValue(LineBudget(NamedCSV.maxRows + NamedCSV.headerSlack)) {
            try await readCounted(data, named: name, limits: limits, each: each)
        }
    }

    private static func readCounted(
        _ data: Data, named name: String, limits: (member: Int, total: Int), each: (ImportRead) async throws -> Void
    ) async throws -> ImportSource {
        // At most 200,000 rows in all, whatever the number of files.
        var total = 0
        func counted(_ read: ImportRead) async throws {
            var read = read
            if read.rows.contains(where: \.hasControlCharacter) {
                read.problems += read.rows.filter(\.hasControlCharacter).map {
                    ImportProblem(file: ImportRow.bounded(file: $0.file), line: $0.line, step: "read", reason: ImportRow.controlCharacterReason)
                }
                read.rows.removeAll(where: \.hasControlCharacter)
            }
            total += read.rows.count + read.problems.count
            guard total <= NamedCSV.maxRows else {
                throw ImportRefused(message: "The upload has more than \(NamedCSV.maxRows) rows: export less at a time.")
            }
            try await each(read)
        }
        if data.starts(with: [0x50, 0x4B, 0x03, 0x04]) || data.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return try await readZIP(data, limits: limits, each: counted)
        }
        guard data.count <= limits.member else {
            throw ImportRefused(message: "The file is larger than \(limits.member >> 20) MiB: this is not an export PopcornSwirl reads.")
        }
        if data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first == UInt8(ascii: "{") {
            guard (try? Backup.decoder.decode(BackupHeader.self, from: data))?.format == Backup.formatName else {
                throw ImportRefused(message: "This JSON file is not a PopcornSwirl backup. Upload Trakt's export as the ZIP it comes in.")
            }
            return .popcornswirl
        }
        let header = String(decoding: data.prefix(4096), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let columns = Set(header.split(separator: ",").map { NamedCSV.columnName(String($0)) })
        if columns.contains("const") {
            var reader = try IMDbFile.Reader(data, named: name)
            while let part = try reader.next(max: partSize) { try await counted(part) }
            return .imdb
        }
        let file = LetterboxdFiles.file(named: name) ?? (columns.contains("watched date") ? .diary : columns.contains("rating") ? .ratings : nil)
        if columns.contains("name") && columns.contains("letterboxd uri"), let file {
            var reader = try LetterboxdFiles.Reader(data, as: file, named: name)
            while let part = try reader.next(max: partSize) { try await counted(part) }
            return .letterboxd
        }
        throw ImportRefused(
            message:
                "PopcornSwirl cannot tell what this file is. Upload Letterboxd’s or Trakt’s export ZIP, an IMDb CSV (ratings, a list or the watchlist), or a PopcornSwirl backup."
        )
    }

    private struct BackupHeader: Decodable {
        var format: String
    }

    private static func readZIP(_ data: Data, limits: (member: Int, total: Int), each: (ImportRead) async throws -> Void) async throws -> ImportSource
    {
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw ImportRefused(message: "The ZIP file could not be opened: it is damaged or incomplete. Export it again and upload the new file.")
        }
        var entries: [Entry] = []
        for entry in archive where entry.type == .file {
            entries.append(entry)
            guard entries.count <= maxMembers else { throw ImportRefused(message: "The ZIP file holds more than \(maxMembers) files.") }
        }
        let paths = entries.map(\.path)
        var total = 0
        func contents(_ entry: Entry) throws -> Data {
            var bytes = Data()
            let packed = max(Int(clamping: entry.compressedSize), 1)
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    bytes.append(chunk)
                    total += chunk.count
                    guard bytes.count <= limits.member, total <= limits.total else { throw TooLarge() }
                    guard bytes.count < ratioGrace || bytes.count / packed <= maxRatio else { throw TooPacked() }
                }
            } catch is TooPacked {
                throw ImportRefused(
                    message: "\(entry.path) unpacks to more than \(maxRatio) times its packed size: this is not an export PopcornSwirl reads.")
            } catch is TooLarge {
                throw ImportRefused(
                    message: bytes.count > limits.member
                        ? "\(entry.path) is larger than \(limits.member >> 20) MiB unpacked: this is not an export PopcornSwirl reads."
                        : "The ZIP file unpacks to more than \(limits.total >> 20) MiB: this is not an export PopcornSwirl reads.")
            } catch {
                throw ImportRefused(message: "\(entry.path) could not be unpacked: the ZIP file is damaged.")
            }
            return bytes
        }
        if paths.contains(where: { TraktFiles.file(named: $0) != nil }) {
            var names: [String: String] = [:]
            for entry in entries where TraktFiles.file(named: entry.path) == .lists {
                names.merge(try TraktFiles.listNames(try contents(entry), named: entry.path)) { a, _ in a }
            }
            for entry in entries {
                guard let file = TraktFiles.file(named: entry.path), file != .lists else { continue }
                try await each(try TraktFiles.read(try contents(entry), as: file, named: entry.path, lists: names))
            }
            return .trakt
        }
        guard paths.contains(where: { LetterboxdFiles.file(named: $0) != nil }) else {
            throw ImportRefused(message: "This ZIP file is neither Letterboxd’s nor Trakt’s export: none of their files are in it.")
        }
        // In a fixed order, whatever the ZIP's: the diary before the reviews that repeat its entries.
        // The diary before watched.csv: a film watched.csv dates gets a watch only when the diary has none.
        let order: [LetterboxdFiles.File] = [.diary, .reviews, .watched, .ratings, .likes, .watchlist, .list]
        let known = entries.compactMap { entry in LetterboxdFiles.file(named: entry.path).map { (entry, $0) } }
        for (entry, file) in known.sorted(by: { (order.firstIndex(of: $0.1) ?? 0) < (order.firstIndex(of: $1.1) ?? 0) }) {
            var reader = try LetterboxdFiles.Reader(try contents(entry), as: file, named: entry.path)
            while let part = try reader.next(max: partSize) { try await each(part) }
        }
        return .letterboxd
    }
}
