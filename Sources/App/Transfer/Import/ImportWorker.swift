import Foundation
import Logging
import ServiceLifecycle

/// Each server's import worker: it takes the oldest job no server holds (`ImportStore.claim`),
/// works on it under a lease, and looks again every `interval` when there is none. A job a
/// stopped server held is taken up by another (or by this one after a restart) once its lease has
/// run out, at the first row not yet dealt with.
public struct ImportWorker: Service {
    let imports: ImportService
    let logger: Logger
    let interval: TimeInterval
    let owner = "server-\(UUID().uuidString.prefix(8))"

    public init(imports: ImportService, logger: Logger, interval: TimeInterval = 2) {
        self.imports = imports
        self.logger = logger
        self.interval = interval
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    if try await imports.runNext(owner: owner) { continue }
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("import worker: \(String(reflecting: error)) (tried again in \(Int(interval)) s)")
                }
                try? await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
