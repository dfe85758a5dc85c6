import Foundation
import Testing

/// What the snapshot helper hides and what it reports.
@Suite("Snapshots: the helper")
struct SnapshotHelperTests {
    @Test("CSRF tokens and UUIDs become numbered placeholders; everything else is kept")
    func normalising() {
        let page = """
            <meta name="csrf-token" content="tokenA">
            <form><input type="hidden" name="csrf" value="tokenA"></form>
            <form><input type="hidden" name="csrf" value="tokenB"></form>
            <img src="/offers/images/0F6C1D5E-36B4-4C7B-9F51-3F0D2A3B4C5D"> <a href="/x/0f6c1d5e-36b4-4c7b-9f51-3f0d2a3b4c5d">
            <a href="/y/11111111-2222-3333-4444-555555555555">18 Nov 2026</a>
            """
        #expect(
            Snapshot.normalised(page) == """
                <meta name="csrf-token" content="<csrf-1>">
                <form><input type="hidden" name="csrf" value="<csrf-1>"></form>
                <form><input type="hidden" name="csrf" value="<csrf-2>"></form>
                <img src="/offers/images/<uuid-1>"> <a href="/x/<uuid-1>">
                <a href="/y/<uuid-2>">18 Nov 2026</a>
                """)
    }

    @Test("a difference is reported at its first line, with both versions")
    func difference() throws {
        #expect(SnapshotFile.describeDifference(expected: "a\nb\nc", actual: "a\nb\nc") == nil)
        let report = try #require(SnapshotFile.describeDifference(expected: "a\nb\nc", actual: "a\nB\nc"))
        #expect(report.hasPrefix("line 2:\n  expected «b»\n  actual   «B»"))
        #expect(report.contains("\n- b") && report.contains("\n+ B"))
        let shorter = try #require(SnapshotFile.describeDifference(expected: "a\nb", actual: "a"))
        #expect(shorter.hasPrefix("line 2:\n  expected «b»\n  actual   (end of text)"))
    }
}
