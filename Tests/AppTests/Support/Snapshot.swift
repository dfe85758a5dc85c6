import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// Checked-in text files that a test's output must equal. `RECORD_SNAPSHOTS=1` (re)writes them
/// and passes; a missing file is written and fails, so a forgotten recording shows.
enum SnapshotFile {
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// The directory of the test file that called, from its `#filePath`.
    static func directory(of filePath: String) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent()
    }

    static func assertMatches(_ actual: String, file url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let fileManager = FileManager.default
        let exists = fileManager.fileExists(atPath: url.path)
        if recording || !exists {
            do {
                try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("could not write \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            if !exists && !recording {
                Issue.record("no snapshot at \(url.path): recorded it now; check it and commit it", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = fileManager.contents(atPath: url.path) else {
            Issue.record("cannot read \(url.path)", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if let difference = describeDifference(expected: expected, actual: actual) {
            Issue.record(
                "\(url.lastPathComponent) differs (RECORD_SNAPSHOTS=1 re-records it):\n\(difference)", sourceLocation: sourceLocation
            )
        }
    }

    /// nil when equal; else the first differing line (number, expected, actual) and which lines
    /// only one side has.
    static func describeDifference(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        func line(_ lines: [Substring], _ index: Int) -> String {
            index < lines.count ? "«\(lines[index])»" : "(end of text)"
        }
        var message = "line \(first + 1):\n  expected \(line(old, first))\n  actual   \(line(new, first))"
        let oldLines = Set(old)
        let newLines = Set(new)
        let missing = old.filter { !newLines.contains($0) }
        let extra = new.filter { !oldLines.contains($0) }
        if !missing.isEmpty || !extra.isEmpty {
            message += "\nlines only expected (-) or only actual (+):"
            message += (missing.prefix(20).map { "\n- \($0)" } + extra.prefix(20).map { "\n+ \($0)" }).joined()
        }
        return message
    }
}

/// Compares a page (or a JSON answer) with `Tests/AppTests/__Snapshots__/<TestFile>/<name>.<ext>`
/// after `Snapshot.normalised`; records it as `SnapshotFile` describes.
func assertSnapshot(
    _ text: String, named name: String, as ext: String = "html", filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let testFile = URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent
    let url = Snapshot.root(from: filePath).appendingPathComponent("__Snapshots__/\(testFile)/\(name).\(ext)")
    SnapshotFile.assertMatches(Snapshot.normalised(text), file: url, sourceLocation: sourceLocation)
}

/// A page as a browser gets it: `status`, HTML, and the body equal to its snapshot.
func assertPage(
    _ response: TestResponse, named name: String, status: HTTPResponse.Status = .ok, filePath: String = #filePath,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(response.status == status, "\(name)", sourceLocation: sourceLocation)
    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(name)", sourceLocation: sourceLocation)
    assertSnapshot(response.text, named: name, filePath: filePath, sourceLocation: sourceLocation)
}

enum Snapshot {
    /// `Tests/AppTests`, up from a test file.
    static func root(from filePath: String) -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.lastPathComponent != "AppTests", url.pathComponents.count > 1 { url.deleteLastPathComponent() }
        return url
    }

    /// What legitimately differs between runs, replaced by numbered placeholders (the same value
    /// gets the same number, so a page whose forms carried two different CSRF tokens still shows
    /// it): the CSRF token of the browser (form fields and the layout's meta tag) and random UUIDs
    /// (image ids of the demo seed, API token ids). Everything else comes from the ManualClock and
    /// the fixtures, and is compared as it is.
    static func normalised(_ text: String) -> String {
        var text = text
        var csrf: [Substring: Int] = [:]
        text = text.replacing(#/(name="csrf" value="|<meta name="csrf-token" content=")([^"]*)"/#) { match in
            let number = csrf[match.output.2] ?? csrf.count + 1
            csrf[match.output.2] = number
            return "\(match.output.1)<csrf-\(number)>\""
        }
        var uuids: [String: Int] = [:]
        text = text.replacing(#/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#) { match in
            let key = match.output.lowercased()
            let number = uuids[key] ?? uuids.count + 1
            uuids[key] = number
            return "<uuid-\(number)>"
        }
        return text
    }
}
