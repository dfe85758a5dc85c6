@testable import App

extension OfferViewer {
    /// A visitor on an address of its own: tests of counting are not capped per address unless they mean to be.
    static func test(_ id: String) -> OfferViewer { OfferViewer(id: id, address: "address-of-" + id) }
}
