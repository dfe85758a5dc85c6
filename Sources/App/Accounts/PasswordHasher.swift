import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// bcrypt, on threads of its own and with a bounded queue.
///
/// Threads: bcrypt at cost 12 takes about a quarter of a second of CPU. On `NIOThreadPool.singleton`
/// it would queue behind and ahead of SQLite's queries (which run there), so a burst of sign-ins
/// would stall every page. It gets its own two threads instead; past `maxWaiting` jobs waiting for
/// them the answer is `Busy` ("try again in a moment", with Retry-After), not an ever longer queue.
///
/// Format: bcrypt reads at most 72 bytes and stops at a NUL byte, while passwords may have 128
/// characters (up to 512 bytes). So the password is first reduced to HMAC-SHA256 under a fixed
/// application key, base64-encoded (44 ASCII characters, no NUL), and that is what bcrypt hashes:
/// every byte of the password counts. Stored as `$ps1$` + the bcrypt string, so the form is known.
/// The key is not a secret pepper; it only keeps these hashes apart from plain SHA-256 lists.
/// A hash without the marker is plain bcrypt of the password (accounts made before): it still
/// verifies, and `Verdict.rightButOld` asks the caller to store the new form.
final class PasswordHasher: Sendable {
    static let cost: UInt8 = 12
    static let threads = 2
    static let maxWaiting = 64
    static let marker = "$ps1$"
    private static var key: SymmetricKey { SymmetricKey(data: Data("PopcornSwirl password hash v1".utf8)) }

    /// One pool for the process, started on first use and never stopped (like the singleton).
    private static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }()

    /// Too many passwords are being hashed already.
    struct Busy: DomainFailure, Equatable {
        /// Seconds to suggest: the queue drains at about 8 hashes a second.
        static let retryAfter = 5
    }

    enum Verdict: Sendable, Equatable {
        case wrong
        case right
        /// Right, but stored in the old plain-bcrypt form.
        case rightButOld
    }

    /// Jobs running or waiting at most.
    let capacity: Int
    private let inFlight = Mutex(0)

    init(capacity: Int = threads + maxWaiting) {
        self.capacity = capacity
    }

    /// Jobs running or waiting now.
    var load: Int { inFlight.withLock { $0 } }

    /// Runs `work` on the pool, or throws `Busy` when `capacity` jobs are already in.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        let admitted = inFlight.withLock { count in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { throw Busy() }
        defer { inFlight.withLock { $0 -= 1 } }
        return try await Self.pool.runIfActive(work)
    }

    func hash(_ password: String) async throws -> String {
        try await run { Self.hashNow(password) }
    }

    /// Without a stored hash (no such account) the decoy is checked, and the verdict is `wrong`.
    func verify(_ password: String, hash: String?) async throws -> Verdict {
        try await run {
            let verdict = Self.verifyNow(password, stored: hash ?? Self.decoyHash)
            return hash == nil ? .wrong : verdict
        }
    }

    /// Checked when the username is unknown, so a wrong username costs as long as a wrong password.
    static let decoyHash = hashNow(SessionService.newToken())

    static func hashNow(_ password: String) -> String {
        marker + Bcrypt.hash(prehash(password), cost: cost)
    }

    static func verifyNow(_ password: String, stored: String) -> Verdict {
        if stored.hasPrefix(marker) {
            return Bcrypt.verify(prehash(password), hash: String(stored.dropFirst(marker.count))) ? .right : .wrong
        }
        return Bcrypt.verify(password, hash: stored) ? .rightButOld : .wrong
    }

    /// Every byte of the password, in 44 characters bcrypt reads whole.
    static func prehash(_ password: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(password.utf8), using: key)).base64EncodedString()
    }
}
