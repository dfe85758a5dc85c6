import Foundation
import Logging
import ServiceLifecycle

/// A background worker's life: `round` now and every `interval` after it, until the server shuts
/// down gracefully. A failed round is logged (with `name`) and the next one comes after the interval.
func repeatRounds(every interval: TimeInterval, logger: Logger, name: String, _ round: @escaping @Sendable () async throws -> Void) async throws {
    try await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            do {
                try await round()
            } catch is CancellationError {
                return
            } catch {
                logger.error("\(name): \(String(reflecting: error)) (tried again in \(Int(interval)) s)")
            }
            try? await Task.sleep(for: .seconds(interval))
        }
    }
}
