import Foundation
import ZIPFoundation

/// Where an upload came from, read from its bytes and name, never trusted from the form.
public enum ImportSource: String, Sendable, Equatable {
    case letterboxd, imdb, trakt, tvtime, simkl, popcornswirl
}

/// A file of an upload: a ZIP's member, or one of several files uploaded together (a TV Time
/// export's folder). Its bytes are unpacked only when it is read.
struct ImportMember {
    let path: String
    /// Uploaded as it is rather than found in a ZIP: it may be told by its columns when its name says nothing.
    let loose: Bool
    let contents: () throws -> Data
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
            if (try? Backup.decoder.decode(BackupHeader.self, from: data))?.format == Backup.formatName { return .popcornswirl }
            guard SimklFiles.isBackup(data) else {
                throw ImportRefused(
                    message: "This JSON file is not a PopcornSwirl backup, nor Simkl’s. Upload Trakt's export as the ZIP it comes in.")
            }
            try await SimklFiles.readBackup(data, named: name, each: counted)
            return .simkl
        }
        let columns = NamedCSV.columns(of: data)
        if TVTimeFiles.file(columns: columns) != nil {
            return try await readMembers([ImportMember(path: name, loose: true, contents: { data })], each: counted)
        }
        if SimklFiles.isCSV(columns: columns) {
            var reader = try SimklFiles.CSVReader(data, named: name)
            while let part = try reader.next(max: partSize) { try await counted(part) }
            return .simkl
        }
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
                "PopcornSwirl cannot tell what this file is. Upload Letterboxd’s, Trakt’s or TV Time’s export ZIP, Simkl’s backup, an IMDb CSV (ratings, a list or the watchlist), or a PopcornSwirl backup."
        )
    }

    /// Several files uploaded together (the CSVs of an export's folder), read as the members of
    /// one export within the same caps as a ZIP's.
    @discardableResult
    public static func read(files: [(name: String, data: Data)], each: (ImportRead) async throws -> Void) async throws -> ImportSource {
        if files.count == 1, let file = files.first { return try await read(file.data, named: file.name, each: each) }
        guard files.count <= maxMembers else { throw ImportRefused(message: "More than \(maxMembers) files were uploaded together.") }
        if let large = files.first(where: { $0.data.count > memberLimit }) {
            throw ImportRefused(message: "\(large.name) is larger than \(memberLimit >> 20) MiB: this is not an export PopcornSwirl reads.")
        }
        guard files.reduce(0, { $0 + $1.data.count }) <= totalLimit else {
            throw ImportRefused(message: "The files add up to more than \(totalLimit >> 20) MiB: this is not an export PopcornSwirl reads.")
        }
        if files.contains(where: { $0.data.starts(with: [0x50, 0x4B]) }) {
            throw ImportRefused(message: "Upload a ZIP file on its own, not with other files.")
        }
        return try await LineBudget.$current.withValue(LineBudget(NamedCSV.maxRows + NamedCSV.headerSlack)) {
            var total = 0
            return try await readMembers(files.map { file in ImportMember(path: file.name, loose: true, contents: { file.data }) }) { read in
                total += read.rows.count + read.problems.count
                guard total <= NamedCSV.maxRows else {
                    throw ImportRefused(message: "The upload has more than \(NamedCSV.maxRows) rows: export less at a time.")
                }
                try await each(read)
            }
        }
    }

    private struct BackupHeader: Decodable {
        var format: String
    }

    private static func readZIP(_ data: Data, limits: (member: Int, total: Int), each: (ImportRead) async throws -> Void) async throws -> ImportSource
    {
        // Bit 0 of the first member's flags: encrypted (TV Time's export comes with a password, sent
        // in another email). ZIPFoundation reads no encrypted member.
        if data.count > 8, data.starts(with: [0x50, 0x4B, 0x03, 0x04]), data[data.startIndex + 6] & 1 == 1 {
            throw ImportRefused(
                message:
                    "This ZIP file is locked with a password (TV Time sends it in a separate email). Open it with that password, then choose the CSV files of its folder together."
            )
        }
        let archive: Archive
        do { archive = try Archive(data: data, accessMode: .read) } catch {
            throw ImportRefused(message: "The ZIP file could not be opened: it is damaged or incomplete. Export it again and upload the new file.")
        }
        var entries: [Entry] = []
        for entry in archive where entry.type == .file {
            entries.append(entry)
            guard entries.count <= maxMembers else { throw ImportRefused(message: "The ZIP file holds more than \(maxMembers) files.") }
        }
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
        return try await readMembers(
            entries.map { entry in ImportMember(path: entry.path, loose: false, contents: { try contents(entry) }) }, each: each)
    }

    /// The members of an export, by whose they are: Trakt's, Simkl's backup, TV Time's, Letterboxd's.
    private static func readMembers(_ members: [ImportMember], each: (ImportRead) async throws -> Void) async throws -> ImportSource {
        let paths = members.map(\.path)
        if paths.contains(where: { TraktFiles.file(named: $0) != nil }) {
            var names: [String: String] = [:]
            for member in members where TraktFiles.file(named: member.path) == .lists {
                names.merge(try TraktFiles.listNames(try member.contents(), named: member.path)) { a, _ in a }
            }
            for member in members {
                guard let file = TraktFiles.file(named: member.path), file != .lists else { continue }
                try await each(try TraktFiles.read(try member.contents(), as: file, named: member.path, lists: names))
            }
            return .trakt
        }
        if let backup = members.first(where: { SimklFiles.isBackup(named: $0.path) }) {
            try await SimklFiles.readBackup(try backup.contents(), named: backup.path, each: each)
            return .simkl
        }
        var tvtime: [(ImportMember, TVTimeFiles.File)] = []
        for member in members {
            if let file = TVTimeFiles.file(named: member.path) {
                tvtime.append((member, file))
            } else if member.loose, LetterboxdFiles.file(named: member.path) == nil,
                let file = TVTimeFiles.file(columns: NamedCSV.columns(of: try member.contents()))
            {
                tvtime.append((member, file))
            }
        }
        if !tvtime.isEmpty {
            // The older lists of seen episodes only when neither log is there (they repeat it).
            let logs = tvtime.contains { $0.1 == .trackingV1 || $0.1 == .trackingV2 }
            let seen = TVTimeFiles.Seen()
            let order = TVTimeFiles.order
            for (member, file) in tvtime.sorted(by: { order.firstIndex(of: $0.1)! < order.firstIndex(of: $1.1)! })
            where !(logs && file == .seenEpisodes) {
                var reader = try TVTimeFiles.Reader(try member.contents(), as: file, named: member.path, seen: seen)
                while let part = try reader.next(max: partSize) { try await each(part) }
            }
            return .tvtime
        }
        guard paths.contains(where: { LetterboxdFiles.file(named: $0) != nil }) else {
            throw ImportRefused(
                message: "None of Letterboxd’s, Trakt’s, TV Time’s or Simkl’s export files are in this upload: PopcornSwirl cannot tell what it is.")
        }
        // In a fixed order, whatever the ZIP's: the diary before the reviews that repeat its entries.
        // The diary before watched.csv: a film watched.csv dates gets a watch only when the diary has none.
        let order: [LetterboxdFiles.File] = [.diary, .reviews, .watched, .ratings, .likes, .watchlist, .list]
        let known = members.compactMap { member in LetterboxdFiles.file(named: member.path).map { (member, $0) } }
        for (member, file) in known.sorted(by: { (order.firstIndex(of: $0.1) ?? 0) < (order.firstIndex(of: $1.1) ?? 0) }) {
            var reader = try LetterboxdFiles.Reader(try member.contents(), as: file, named: member.path)
            while let part = try reader.next(max: partSize) { try await each(part) }
        }
        return .letterboxd
    }
}
