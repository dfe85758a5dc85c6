import Foundation

/// Uploads of import files counted per person and per client address in an hour, in the database
/// (`import_uploads`) so every server counts the same ones: reading and storing an upload costs
/// seconds of CPU and up to 200,000 rows, and upload, cancel, upload again must not be a loop.
struct UploadThrottle: Sendable {
    static let perPerson = 10
    static let perAddress = 30
    static let window: TimeInterval = 3600

    let person: AttemptWindow
    let address: AttemptWindow

    init(database: AppDatabase, clock: any AppClock) {
        person = AttemptWindow(
            database: database, clock: clock, table: "import_uploads", timeColumn: "uploaded_at", limit: Self.perPerson, window: Self.window)
        address = AttemptWindow(
            database: database, clock: clock, table: "import_uploads", timeColumn: "uploaded_at", limit: Self.perAddress, window: Self.window)
    }

    /// Nil when the upload may go ahead (and it is counted); else the seconds until one may.
    func admit(profile: UUID, address: String?) async throws -> Int? {
        let ticket: AttemptWindow.Ticket
        switch try await person.admit([("key", "person:" + profile.uuidString.lowercased())]) {
        case .refused(let wait): return wait
        case .allowed(let admitted): ticket = admitted
        }
        guard let address, case .refused(let wait) = try await self.address.admit([("key", "address:" + address)]) else { return nil }
        try await person.remove(ticket)
        return wait
    }
}
