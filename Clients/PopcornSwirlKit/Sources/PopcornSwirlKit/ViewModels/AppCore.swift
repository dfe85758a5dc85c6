import Foundation
import PopcornSwirlAPI

/// What every view model works with: the API client, the device's store and the sync engine.
/// An app builds one at launch (`APIClientFactory.makeClient` for `api`; a store in its
/// Application Support) and hands it to each screen's view model.
public struct AppCore: Sendable {
    public let api: any APIProtocol
    public let store: KitStore
    public let sync: SyncEngine
    public let now: @Sendable () -> Date
    /// The server's address, for the links it gives as paths (offers' signed links).
    public let serverURL: URL?

    public init(api: any APIProtocol, store: KitStore, serverURL: URL? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.serverURL = serverURL
        self.store = store
        self.now = now
        sync = SyncEngine(api: api, store: store, now: now)
    }

    /// A read answered by the server when it can, else by the copy kept from the last time:
    /// `fetch` gives nil (or throws) when the server could not answer. Nil when neither has it.
    func load<Value: Codable & Sendable>(_ key: String, fetch: @Sendable () async throws -> Value?) async -> Loaded<Value>? {
        if let value = try? await fetch() {
            try? store.keep(value, as: key, at: now())
            return Loaded(value: value, keptAt: nil)
        }
        guard let kept = try? store.kept(Value.self, as: key) else { return nil }
        return Loaded(value: kept.value, keptAt: kept.fetchedAt)
    }
}

/// A screen's data and where it came from.
public struct Loaded<Value: Sendable>: Sendable {
    public var value: Value
    /// When the copy shown was fetched, if the server could not answer now (shown as "Offline").
    public var keptAt: Date?
}

/// The seeds' texts for errors and the retry dialog.
public enum KitTexts {
    public static let errorTitle = "Oops, something went wrong"
    public static let fetchFailed = "An error occurred while fetching data. Do you want to try again?"
    public static let saveFailed = "There was a problem saving/deleting this movie. Do you want to try again?"
    public static let saveShowFailed = "There was a problem saving/deleting this TV Show. Do you want to try again?"
    /// Search with nothing searched yet (the Movie Collection spec's welcoming message).
    public static let searchWelcome = "Welcome! Search for a movie by its title."
    /// The confirmation before a TV show leaves the favourites (TVMaze challenge, View-01).
    public static func confirmRemoveShow(_ name: String) -> String { "Remove “\(name)” from your favorites?" }

    public static func offline(since date: Date) -> String {
        "Offline — showing what was kept on \(date.formatted(date: .abbreviated, time: .shortened))."
    }
}

/// The retry dialog: the seeds' title, one of their messages, Cancel and Retry.
public struct ErrorDialog: Sendable, Equatable {
    public var title: String = KitTexts.errorTitle
    public var message: String
    public let cancel = "Cancel"
    public let retry = "Retry"

    public init(message: String) { self.message = message }
}
