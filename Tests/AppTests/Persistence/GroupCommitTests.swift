import Foundation
import SQLKit
import Synchronization
import Testing

@testable import App

/// Writes committed together (`GroupCommit` on SQLite; ordinary transactions on PostgreSQL): a
/// write's body runs once, whatever the others in its group do.
@Suite("Writes committed in groups")
struct GroupCommitTests {
    struct Refused: Error {}

    /// How many times each write's body ran.
    final class Runs: Sendable {
        let counts = Mutex<[Int: Int]>([:])
        func ran(_ n: Int) { counts.withLock { $0[n, default: 0] += 1 } }
    }

    @Test("one write of a group failing undoes that write alone, and no other write's body runs again")
    func aFailedWriteIsUndoneAlone() async throws {
        try await TestDatabase.with { database in
            try await database.writeSQL { sql in try await sql.raw("CREATE TABLE group_probe (n INTEGER NOT NULL)").run() }
            let runs = Runs()
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                // The first write holds the writer a moment, so the others queue and are committed together.
                for n in 0..<12 {
                    group.addTask {
                        do {
                            try await database.writeSQL { sql in
                                runs.ran(n)
                                if n == 0 { try await Task.sleep(for: .milliseconds(100)) }
                                try await sql.raw("INSERT INTO group_probe (n) VALUES (\(bind: n))").run()
                                if n == 7 { throw Refused() }
                            }
                            return (n, true)
                        } catch {
                            return (n, false)
                        }
                    }
                    if n == 0 { try? await Task.sleep(for: .milliseconds(20)) }
                }
                return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.filter { !$0.value }.map(\.key) == [7])
            #expect(runs.counts.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<12).map { ($0, 1) }))
            let kept = try await database.sql.raw("SELECT n FROM group_probe ORDER BY n").all().map { try $0.decode(column: "n", as: Int.self) }
            #expect(kept == Array(0..<12).filter { $0 != 7 })
        }
    }
}
