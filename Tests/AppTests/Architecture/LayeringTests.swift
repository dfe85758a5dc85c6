import Foundation
import Testing

/// The shape every change keeps (docs/ARCHITECTURE.md): read from the source files themselves,
/// so a shortcut that breaks a rule fails here rather than in a review.
@Suite("Architecture rules")
struct LayeringTests {
    static let app = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/App")
    static let domainFolders = [
        "Accounts", "Ads", "Calendar", "Catalog", "Config", "Library", "Persistence", "Posters", "Search", "Support", "Transfer", "TV",
    ]

    /// Every Swift file under `folder` (relative to Sources/App) with its text.
    static func sources(_ folder: String) -> [(path: String, text: String)] {
        let root = app.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.compactMap { url in
            (try? String(contentsOf: url, encoding: .utf8)).map { (url.path.replacingOccurrences(of: app.path + "/", with: ""), $0) }
        }
    }

    /// The types a folder declares.
    static func declaredTypes(_ folder: String) -> Set<String> {
        let pattern = /(?m)^(?:public |final |public final )?(?:struct|enum|class|protocol|actor)\s+([A-Z][A-Za-z0-9]*)/
        return Set(sources(folder).flatMap { file in file.text.matches(of: pattern).map { String($0.1) } })
    }

    /// Each file under `folder` that names a type of `upper` (one its own folder declares aside), with those types.
    static func uses(in folder: String, of upper: Set<String>) -> [(path: String, used: [String])] {
        let own = declaredTypes(folder)
        return sources(folder).compactMap { file in
            let words = Set(file.text.split { !$0.isLetter && !$0.isNumber }.map(String.init))
            let used = words.intersection(upper).subtracting(own)
            return used.isEmpty ? nil : (file.path, used.sorted())
        }
    }

    @Test("no domain folder uses a type of Web/, API/ or HTTP/")
    func domainDoesNotReachUp() {
        let upper = Self.declaredTypes("Web").union(Self.declaredTypes("API")).union(Self.declaredTypes("HTTP"))
        #expect(upper.contains("Route") && upper.contains("PageRenderer") && upper.contains("APIController"))
        for folder in Self.domainFolders {
            for file in Self.uses(in: folder, of: upper) {
                Issue.record("\(file.path) uses \(file.used)")
            }
        }
    }

    @Test("API/ names no Web/ type: the API maps its outcomes itself or through the shared HTTP/ layer")
    func apiDoesNotUseThePages() {
        let pages = Self.declaredTypes("Web")
        #expect(pages.contains("PageRenderer") && pages.contains("SearchController"))
        for file in Self.uses(in: "API", of: pages) {
            Issue.record("\(file.path) uses \(file.used)")
        }
    }

    @Test("the shared HTTP/ layer names no Web/ or API/ type: both stand on it")
    func sharedLayerStaysShared() {
        let upper = Self.declaredTypes("Web").union(Self.declaredTypes("API"))
        #expect(Self.declaredTypes("HTTP").isSuperset(of: ["Route", "AppRequestContext", "JSONAnswer"]))
        for file in Self.uses(in: "HTTP", of: upper) {
            Issue.record("\(file.path) uses \(file.used)")
        }
    }

    @Test("site paths are written only in the route type; no controller takes AppServices")
    func pathsOnlyInRoutes() {
        for file in Self.sources("Web") + Self.sources("API") + Self.sources("HTTP") where file.path != "HTTP/Routes.swift" {
            for prefix in [
                #""/api"#, #""/admin"#, #""/movies"#, #""/shows"#, #""/library"#, #""/account"#, #""/search"#, #""/offers"#, #""/lists"#,
                #""/shared"#, #""/diary"#,
            ] {
                #expect(!file.text.contains(prefix), "\(file.path) writes a path (\(prefix))")
            }
            #expect(!file.text.contains(": AppServices"), "\(file.path) takes AppServices")
        }
        for template
            in (FileManager.default.enumerator(atPath: Self.app.appendingPathComponent("Resources/templates").path)?
            .compactMap { $0 as? String } ?? []).filter({ $0.hasSuffix(".mustache") })
        {
            let text = (try? String(contentsOf: Self.app.appendingPathComponent("Resources/templates/" + template), encoding: .utf8)) ?? ""
            #expect(!text.contains(#"="/"#) && !text.contains("}}/"), "\(template) writes a path by hand")
        }
    }

    /// Files are sized by what they hold: a reviewer asks about one past about 400 lines (a
    /// warning in the test report, not a failure), and splits that only kept a file under a count
    /// were merged back.
    @Test("a Swift source or test file past 400 lines is reported for review")
    func longFilesAreReported() {
        let tests = Self.app.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests")
        let testFiles = (FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }
            .compactMap { path in (try? String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)).map { ("Tests/" + path, $0) } }
        #expect(testFiles.count > 40)
        for file in Self.sources("") + testFiles {
            let lines = file.1.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            if lines > 400 { Issue.record("\(file.0) has \(lines) lines: is it one thing?", severity: .warning) }
        }
    }
}
