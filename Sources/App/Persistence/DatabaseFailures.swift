/// The failures `AppDatabase` tells apart.

/// An error that is an expected answer (a refused input, a conflict), not a storage fault: `write`
/// does not log it.
protocol DomainFailure: Error {}

/// A read or write asked for once the database is shut down (or shutting down): refused at once.
struct DatabaseShutDown: Error, CustomStringConvertible {
    var description: String { "the database is shut down" }
}
