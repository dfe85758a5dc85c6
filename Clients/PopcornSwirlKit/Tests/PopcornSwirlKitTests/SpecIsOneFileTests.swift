import Foundation
import Testing

/// The app's client is generated from the server's own spec: the kit's `openapi.yaml` must be a
/// symlink to the server's, never a copy that drifts.
@Suite struct SpecIsOneFileTests {
    /// `Clients/PopcornSwirlKit`, from this file's place in it.
    static let kitRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PopcornSwirlKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
    static let kitSpec = kitRoot.appendingPathComponent("Sources/PopcornSwirlAPI/openapi.yaml")
    static let serverSpec = kitRoot.appendingPathComponent("../../Sources/PopcornAPI/openapi.yaml").standardizedFileURL

    @Test func kitSpecIsASymlinkToTheServerSpec() throws {
        let type = try FileManager.default.attributesOfItem(atPath: Self.kitSpec.path)[.type] as? FileAttributeType
        try #require(type == .typeSymbolicLink, "Sources/PopcornSwirlAPI/openapi.yaml must be a symlink to the server's spec, not a copy")
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: Self.kitSpec.path)
        #expect(target == "../../../../Sources/PopcornAPI/openapi.yaml")
    }

    @Test func kitSpecHasTheServerSpecBytes() throws {
        let kit = try Data(contentsOf: Self.kitSpec)
        let server = try Data(contentsOf: Self.serverSpec)
        #expect(!server.isEmpty)
        #expect(kit == server, "Clients/PopcornSwirlKit/Sources/PopcornSwirlAPI/openapi.yaml differs from Sources/PopcornAPI/openapi.yaml")
    }
}
