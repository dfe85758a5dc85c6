import Foundation
import Logging

/// cache → upstream → stale cache, with one request per key in flight, a per-host throttle and
/// a breaker that stops waiting on a host that just failed. Failures are never cached.
public final class CachedUpstream: Sendable {
    let http: any UpstreamHTTP
    let store: any CatalogCacheStore
    let throttle: HostThrottle
    let breaker: HostBreaker
    let clock: any AppClock
    let offline: Bool
    let logger: Logger
    /// After a 429, wait this long and try once more (TVMaze asks for ~2 s); nil: no retry.
    let rateLimitRetryDelay: TimeInterval?
    /// Each client's fair share of this upstream (nil: no per-client limit).
    let share: ClientShare?
    let sleep: @Sendable (TimeInterval) async -> Void
    /// The longest a caller waits for the upstream (nil: as long as the call takes). Past it the
    /// caller is answered from the stale copy, or told the upstream is unreachable, while the call
    /// goes on and stores its answer for the next caller.
    let maxWait: Duration?
    let metrics: AppMetrics?
    /// Where several servers share the database: one of them calls for a key at a time (the
    /// others wait for what it stores). Nil: this process's `flight` alone.
    let leases: Leases?
    private let flight = SingleFlight<String, CachedBody, UpstreamError>()

    init(
        http: any UpstreamHTTP, store: any CatalogCacheStore, throttle: HostThrottle, breaker: HostBreaker,
        clock: any AppClock, offline: Bool, logger: Logger, rateLimitRetryDelay: TimeInterval? = nil, share: ClientShare? = nil,
        sleep: @escaping @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(for: .seconds($0)) },
        maxWait: Duration? = nil, metrics: AppMetrics? = nil, leases: Leases? = nil
    ) {
        self.http = http
        self.store = store
        self.throttle = throttle
        self.breaker = breaker
        self.clock = clock
        self.offline = offline
        self.logger = logger
        self.rateLimitRetryDelay = rateLimitRetryDelay
        self.share = share
        self.sleep = sleep
        self.maxWait = maxWait
        self.metrics = metrics
        self.leases = leases
    }

    /// `validate` must throw for a body that cannot be used (it is then neither served nor cached).
    /// `notFoundBody`: where a 404 is an answer ("no such page"), the body that stands for it.
    public func fetch(
        key: String, url: URL, freshFor: TimeInterval, headers: [(String, String)] = [], notFoundBody: Data? = nil,
        validate: @escaping @Sendable (Data) throws -> Void
    ) async -> Fetched {
        await fetch(
            key: key, url: url, policy: FetchPolicy(freshness: { _ in freshFor }, headers: headers, notFoundBody: notFoundBody), validate: validate)
    }

    /// The general form: how long an answer stays fresh may depend on the answer (OMDb keeps
    /// "not found" for a day, films for a week), some error statuses carry a body worth reading,
    /// and a budget may cap the calls.
    public func fetch(key: String, url: URL, policy: FetchPolicy, validate: @escaping @Sendable (Data) throws -> Void) async -> Fetched {
        let host = url.host ?? ""
        let cached: CachedBody?
        do {
            cached = try await store.read(key)
        } catch {
            logger.warning("cache read failed", metadata: ["key": "\(key)", "error": "\(error)"])
            cached = nil
        }
        if let cached, clock.now().timeIntervalSince(cached.fetchedAt) < policy.freshness(cached.body) {
            metrics?.recordLookup(host: host, .hit)
            return .fresh(cached)
        }
        let known = cached?.fetchedAt
        let call: @Sendable () async -> Result<CachedBody, UpstreamError> = { [self] in
            let result = await flight.run(key) { await self.callOnce(key: key, url: url, policy: policy, validate: validate, known: known) }
            // Joined another client's call that its share refused: this client asks for itself.
            if case .failure(.overShare(let client, _)) = result, let current = UpstreamClient.current, current.key != client {
                return await flight.run(key) { await self.callOnce(key: key, url: url, policy: policy, validate: validate, known: known) }
            }
            return result
        }
        let result: Result<CachedBody, UpstreamError>
        if let maxWait {
            if let answered = await Deadline.first(within: maxWait, call) {
                result = answered
            } else {
                logger.notice(
                    "upstream slow: answering without it, its answer is kept when it comes", metadata: ["host": "\(host)", "waited": "\(maxWait)"])
                result = .failure(.unreachable("\(host): no answer within \(maxWait)"))
            }
        } else {
            result = await call()
        }
        switch result {
        case .success(let body):
            metrics?.recordLookup(host: host, .miss)
            return .fresh(body)
        case .failure(let error):
            if let cached {
                metrics?.recordLookup(host: host, .stale)
                return .stale(cached, error)
            }
            metrics?.recordLookup(host: host, .failed)
            return .failed(error)
        }
    }

    /// The answer kept for `key`, of any age, as the store has it now (another server may have
    /// refreshed it), without asking the upstream: what a page shows while the background worker
    /// keeps it fresh (`CatalogWorker`). Nil when nothing was ever kept.
    func kept(key: String) async -> CachedBody? {
        do {
            return try await store.read(key)
        } catch {
            logger.warning("cache read failed", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    /// Asks the upstream now whatever is kept (the background worker's refresh), one call per key
    /// at a time as any fetch; the answer is stored for every reader.
    func refresh(key: String, url: URL, policy: FetchPolicy, validate: @escaping @Sendable (Data) throws -> Void) async -> Result<
        CachedBody, UpstreamError
    > {
        let known = try? await store.read(key)
        return await flight.run(key) { await self.callOnce(key: key, url: url, policy: policy, validate: validate, known: known?.fetchedAt) }
    }

    func callUpstream(
        key: String, url: URL, policy: FetchPolicy, validate: @Sendable (Data) throws -> Void
    ) async -> Result<CachedBody, UpstreamError> {
        let host = url.host ?? ""
        if offline {
            metrics?.recordRefusal(host: host, reason: "offline")
            return .failure(.offlineMode)
        }
        var retried = false
        var body: Data
        var errorStatus: Int?
        while true {
            if breaker.isOpen(host) {
                metrics?.recordRefusal(host: host, reason: "breaker")
                return .failure(.hostDown)
            }
            // The client's own share first: a client over it does not use up the shared allowance.
            var admission: ClientShare.Admission?
            if !retried, let share, let client = UpstreamClient.current {
                let admitted = await share.admit(client)
                if case .refused(let wait) = admitted {
                    logger.notice("client over its share", metadata: ["host": "\(host)", "retryAfter": "\(wait)"])
                    metrics?.recordRefusal(host: host, reason: "share")
                    return .failure(.overShare(client: client.key, retryAfter: wait))
                }
                admission = admitted
            }
            guard await throttle.admit(host) else {
                logger.notice("upstream throttled", metadata: ["host": "\(host)"])
                metrics?.recordRefusal(host: host, reason: "throttle")
                if let admission { await share?.release(admission) }
                return .failure(.throttled)
            }
            if let budget = policy.budget, await !budget.spend() {
                logger.notice("upstream budget spent for today", metadata: ["host": "\(host)"])
                metrics?.recordRefusal(host: host, reason: "budget")
                if let admission { await share?.release(admission) }
                return .failure(.quotaExhausted)
            }
            let response: UpstreamResponse
            let started = ContinuousClock.now
            do {
                response = try await http.get(url, headers: policy.headers)
                metrics?.recordCall(host: host, outcome: "status_\(response.status / 100)xx", duration: ContinuousClock.now - started)
            } catch {
                metrics?.recordCall(host: host, outcome: error.isUnreachable ? "unreachable" : "error", duration: ContinuousClock.now - started)
                if error.isUnreachable { breaker.recordUnreachable(host) }
                logger.warning("upstream failed", metadata: ["url": "\(url)", "error": "\(error)"])
                return .failure(error)
            }
            breaker.recordSuccess(host)
            switch response.status {
            case 200..<300:
                body = response.body
            case 404 where policy.notFoundBody != nil:
                body = policy.notFoundBody!
            case 300..<400 where policy.keepsRedirects && response.location != nil:
                body = (try? JSONEncoder().encode(RedirectAnswer(location: response.location!))) ?? Data()
            case let status where policy.bodyStatuses.contains(status):
                // The body explains the error (OMDb's 401): `validate` turns it into a refusal.
                body = response.body
                errorStatus = status
            case 429 where rateLimitRetryDelay != nil && !retried:
                retried = true
                logger.notice("upstream asked us to back off", metadata: ["host": "\(host)"])
                await sleep(rateLimitRetryDelay!)
                continue
            case 403, 429:
                return .failure(.rateLimited(status: response.status))
            default:
                return .failure(.badStatus(response.status))
            }
            break
        }
        guard !body.isEmpty || errorStatus != nil else { return .failure(.malformed("empty body")) }
        do {
            try validate(body)
        } catch let refusal as UpstreamRefusal {
            logger.warning("upstream refused", metadata: ["url": "\(url)", "error": "\(refusal.message)"])
            return .failure(.refused(refusal.message))
        } catch {
            logger.warning("upstream body rejected", metadata: ["url": "\(url)", "error": "\(error)"])
            return .failure(errorStatus.map(UpstreamError.badStatus) ?? .malformed("\(error)"))
        }
        // An error status whose body did not explain itself is still an error, never an answer to keep.
        if let errorStatus { return .failure(.badStatus(errorStatus)) }
        let entry = CachedBody(body: body, fetchedAt: clock.now())
        do {
            try await store.write(key, entry)
        } catch {
            logger.warning("cache write failed", metadata: ["key": "\(key)", "error": "\(error)"])
        }
        return .success(entry)
    }
}
