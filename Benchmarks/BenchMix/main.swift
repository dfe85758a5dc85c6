// bench-mix: replays a request plan (made by `scripts/bench --mix`) against a server with N
// concurrent keep-alive connections for a fixed time, and prints per-label latency as JSON.
//
// Usage: bench-mix PLAN.json BASE_URL CONNECTIONS SECONDS [RATE]
// Without RATE each connection sends its next request as soon as its answer is in (closed loop: the
// server's most). With RATE (requests a second) request i is due at start + i / RATE, sent by the
// next free connection, and its latency counts from when it was due (open loop: a load people
// bring, with no coordinated omission).
// PLAN.json: [{"method": "GET", "path": "/movies?year=2019", "cookie": "…" | null,
//              "address": "10.0.0.7" | null (sent as X-Forwarded-For), "body": "…" | null,
//              "label": "year", "contentType": "…" (optional: the body's type, JSON by default)}, …],
//              taken in turn by every connection.
import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

struct PlannedRequest: Decodable, Sendable {
    let method: String
    let path: String
    let cookie: String?
    let address: String?
    let body: String?
    let label: String
    let contentType: String?
}

struct LabelReport: Encodable {
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let max: Double
    let statuses: [String: Int]
    let bytes: Int
}

struct Report: Encodable {
    let requests: Int
    let seconds: Double
    let throughput: Double
    let errors: Int
    let firstErrors: [String]
    let all: LabelReport
    let labels: [String: LabelReport]
}

/// One answered request: its label's index, its latency in nanoseconds, its status (0: failed).
struct Sample {
    let label: Int
    let nanoseconds: Int64
    let status: Int
    let bytes: Int
}

func milliseconds(_ sorted: [Int64], _ quantile: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let index = min(sorted.count - 1, Int((Double(sorted.count) * quantile).rounded(.up)) - 1)
    return Double(sorted[max(0, index)]) / 1e6
}

func report(_ samples: [Sample]) -> LabelReport {
    let sorted = samples.map(\.nanoseconds).sorted()
    var statuses: [String: Int] = [:]
    for sample in samples { statuses[String(sample.status), default: 0] += 1 }
    return LabelReport(
        count: samples.count, p50: milliseconds(sorted, 0.5), p90: milliseconds(sorted, 0.9), p99: milliseconds(sorted, 0.99),
        max: Double(sorted.last ?? 0) / 1e6, statuses: statuses, bytes: samples.reduce(0) { $0 + $1.bytes })
}

let arguments = CommandLine.arguments
guard arguments.count >= 5, let connections = Int(arguments[3]), let seconds = Double(arguments[4]) else {
    FileHandle.standardError.write(Data("usage: bench-mix PLAN.json BASE_URL CONNECTIONS SECONDS [RATE]\n".utf8))
    exit(2)
}
let plan = try JSONDecoder().decode([PlannedRequest].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let base = arguments[2]
let rate = arguments.count > 5 ? Double(arguments[5]) : nil
let labels = Array(Set(plan.map(\.label))).sorted()
let labelIndex = Dictionary(uniqueKeysWithValues: labels.enumerated().map { ($1, $0) })

var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
configuration.timeout = .init(connect: .seconds(5), read: .seconds(30))
configuration.decompression = .disabled
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

let next = Atomic<Int>(0)
let clock = ContinuousClock()
let errors = Mutex<[String]>([])

/// Runs the plan on `connections` workers until `deadline`.
func run(from start: ContinuousClock.Instant, until deadline: ContinuousClock.Instant) async -> [Sample] {
    await withTaskGroup(of: [Sample].self) { group in
        for _ in 0..<connections {
            group.addTask {
                var samples: [Sample] = []
                samples.reserveCapacity(100_000)
                while clock.now < deadline {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    let planned = plan[index % plan.count]
                    var started = clock.now
                    if let rate {
                        let due = start + .nanoseconds(Int64(Double(index) / rate * 1e9))
                        if due >= deadline { break }
                        if due > started { try? await Task.sleep(until: due, clock: clock) }
                        started = due
                    }
                    var request = HTTPClientRequest(url: base + planned.path)
                    request.method = .init(rawValue: planned.method)
                    request.headers.add(name: "Accept-Encoding", value: "gzip")
                    request.headers.add(name: "Sec-Fetch-Site", value: "same-origin")
                    if let cookie = planned.cookie { request.headers.add(name: "Cookie", value: cookie) }
                    if let address = planned.address { request.headers.add(name: "X-Forwarded-For", value: address) }
                    if planned.path.hasPrefix("/api/") { request.headers.add(name: "Accept", value: "application/json") }
                    if let body = planned.body {
                        request.headers.add(name: "Content-Type", value: planned.contentType ?? "application/json")
                        request.body = .bytes(ByteBuffer(string: body))
                    }
                    var status = 0
                    var bytes = 0
                    do {
                        let response = try await client.execute(request, timeout: .seconds(30))
                        status = Int(response.status.code)
                        for try await chunk in response.body { bytes += chunk.readableBytes }
                    } catch {
                        errors.withLock { if $0.count < 5 { $0.append("\(planned.method) \(planned.path): \(error)") } }
                    }
                    let elapsed = clock.now - started
                    let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
                    samples.append(Sample(label: labelIndex[planned.label]!, nanoseconds: nanoseconds, status: status, bytes: bytes))
                }
                return samples
            }
        }
        var all: [Sample] = []
        for await samples in group { all += samples }
        return all
    }
}

let started = clock.now
let samples = await run(from: started, until: started + .milliseconds(Int64(seconds * 1000)))
let elapsed = clock.now - started
let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
try await client.shutdown()

var byLabel: [String: LabelReport] = [:]
let grouped = Dictionary(grouping: samples, by: \.label)
for (index, label) in labels.enumerated() { byLabel[label] = report(grouped[index] ?? []) }
let result = Report(
    requests: samples.count, seconds: elapsedSeconds, throughput: Double(samples.count) / elapsedSeconds,
    errors: samples.filter { $0.status == 0 }.count, firstErrors: errors.withLock { $0 }, all: report(samples), labels: byLabel)
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
print(String(decoding: try encoder.encode(result), as: UTF8.self))
