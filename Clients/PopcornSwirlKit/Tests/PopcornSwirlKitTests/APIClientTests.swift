import Foundation
import HTTPTypes
import OpenAPIRuntime
import PopcornSwirlAPI
import Testing

@testable import PopcornSwirlKit

/// The generated client, built by `APIClientFactory`, calling real operations through a fake
/// transport: the middlewares' headers, retries and waits, without a network or real sleeping.
@Suite struct APIClientTests {
    static let movieList = #"{"year":2019,"source":{"kind":"live"},"movies":[{"id":496243,"title":"Parasite","year":2019}]}"#
    static let libraryEntry =
        #"{"kind":"movie","id":496243,"title":"Parasite","favorite":true,"watched":false,"updatedAt":"2026-11-25T08:30:00Z"}"#

    func makeClient(_ transport: FakeTransport, sleeps: SleepRecorder = SleepRecorder(), token: String? = "ps_test") -> Client {
        APIClientFactory.makeClient(
            serverURL: URL(string: "https://popcorn.test")!,
            token: { token },
            transport: transport,
            retry: sleeps.policy()
        )
    }

    func putParasite(_ client: Client, note: String = "Again soon") async throws -> Operations.PutLibraryMovie.Output {
        try await client.putLibraryMovie(path: .init(id: 496243), body: .json(.init(favorite: true, note: note)))
    }

    // MARK: Authorization

    @Test func sendsTheBearerToken() async throws {
        let transport = FakeTransport([.json(200, Self.movieList)])
        let output = try await makeClient(transport).listMovies(query: .init(year: 2019))

        #expect(try output.ok.body.json.movies.map(\.title) == ["Parasite"])
        let sent = await transport.sent
        #expect(sent.count == 1)
        #expect(sent[0].operationID == "listMovies")
        #expect(sent[0].request.method == .get)
        #expect(sent[0].request.path == "/api/v1/movies?year=2019")
        #expect(sent[0].request.headerFields[.authorization] == "Bearer ps_test")
    }

    @Test func sendsNoAuthorizationWhenSignedOut() async throws {
        let transport = FakeTransport([.json(200, Self.movieList)])
        _ = try await makeClient(transport, token: nil).listMovies(query: .init(year: 2019))

        #expect(await transport.sent[0].request.headerFields[.authorization] == nil)
    }

    // MARK: Idempotency-Key and Change-Made-At

    @Test func getHasNoIdempotencyKeyNorChangeMadeAt() async throws {
        let transport = FakeTransport([.json(200, Self.movieList)])
        let client = makeClient(transport)
        try await IdempotencyKey.$current.withValue("outbox-1") {
            try await ChangeMadeAt.$current.withValue(Date()) {
                _ = try await client.listMovies(query: .init(year: 2019))
            }
        }

        let request = await transport.sent[0].request
        #expect(request.headerFields[.idempotencyKey] == nil)
        #expect(request.headerFields[.changeMadeAt] == nil)
    }

    @Test func putCarriesOneIdempotencyKeyOnEveryRetry() async throws {
        let transport = FakeTransport([.problem(503), .failure(FakeTransport.Offline()), .json(200, Self.libraryEntry)])
        let sleeps = SleepRecorder()
        let output = try await putParasite(makeClient(transport, sleeps: sleeps))

        #expect(try output.ok.body.json.favorite == true)
        let sent = await transport.sent
        #expect(sent.count == 3)
        let keys = sent.map { $0.request.headerFields[.idempotencyKey] }
        let key = try #require(keys[0])
        #expect(UUID(uuidString: key) != nil)
        #expect(keys == [key, key, key])
        #expect(sent.allSatisfy { $0.request.method == .put && $0.request.path == "/api/v1/library/movies/496243" })
        #expect(sent.allSatisfy { $0.request.headerFields[.changeMadeAt] == nil })
        #expect(await sleeps.sleeps.count == 2)
    }

    @Test func twoCallsGetTwoKeys() async throws {
        let transport = FakeTransport([.json(200, Self.libraryEntry), .json(200, Self.libraryEntry)])
        let client = makeClient(transport)
        _ = try await putParasite(client)
        _ = try await putParasite(client)

        let keys = await transport.sent.map { $0.request.headerFields[.idempotencyKey] }
        #expect(keys.count == 2)
        #expect(keys[0] != nil && keys[0] != keys[1])
    }

    @Test func theOutboxKeyAndMadeAtComeFromTaskLocals() async throws {
        let transport = FakeTransport([.problem(503), .json(200, Self.libraryEntry)])
        let client = makeClient(transport)
        let madeAt = try Date("2026-11-25T08:30:00.250Z", strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true))
        try await IdempotencyKey.$current.withValue("outbox-7f3a") {
            try await ChangeMadeAt.$current.withValue(madeAt) {
                _ = try await putParasite(client)
            }
        }

        let sent = await transport.sent
        #expect(sent.count == 2)
        for attempt in sent {
            #expect(attempt.request.headerFields[.idempotencyKey] == "outbox-7f3a")
            #expect(attempt.request.headerFields[.changeMadeAt] == "2026-11-25T08:30:00.250Z")
        }
    }

    @Test func changeMadeAtIsUTCWithMilliseconds() throws {
        let date = try Date("2026-11-25T09:30:00+01:00", strategy: .iso8601)
        #expect(ChangeMadeAt.headerValue(for: date) == "2026-11-25T08:30:00.000Z")
    }

    @Test func aKeyTheRequestHasIsKept() async throws {
        var request = HTTPRequest(method: .delete, scheme: "https", authority: "popcorn.test", path: "/api/v1/library/movies/1")
        request.headerFields[.idempotencyKey] = "mine"
        let seen = try await IdempotencyKey.$current.withValue("outbox") {
            try await IdempotencyMiddleware().intercept(
                request, body: nil, baseURL: URL(string: "https://popcorn.test")!, operationID: "deleteLibraryMovie"
            ) { request, _, _ in
                (HTTPResponse(status: .noContent, headerFields: request.headerFields), nil)
            }
        }
        #expect(seen.0.headerFields[.idempotencyKey] == "mine")
    }

    // MARK: Retries

    @Test func tooManyRequestsWaitsForRetryAfter() async throws {
        let transport = FakeTransport([.problem(429, headers: [.retryAfter: "2"]), .json(200, Self.movieList)])
        let sleeps = SleepRecorder()
        let output = try await makeClient(transport, sleeps: sleeps).listMovies(query: .init(year: 2019))

        #expect(try output.ok.body.json.year == 2019)
        #expect(await transport.sent.count == 2)
        #expect(await sleeps.sleeps == [.seconds(2)])
    }

    @Test func retryAfterIsCappedAtMaxDelay() async throws {
        let transport = FakeTransport([.problem(503, headers: [.retryAfter: "3600"]), .json(200, Self.movieList)])
        let sleeps = SleepRecorder()
        _ = try await makeClient(transport, sleeps: sleeps).listMovies(query: .init(year: 2019))

        #expect(await sleeps.sleeps == [.seconds(30)])
    }

    @Test func serviceUnavailableIsRetriedWithBackoffThenReturned() async throws {
        let transport = FakeTransport(Array(repeating: .problem(503), count: 4))
        let sleeps = SleepRecorder()
        let output = try await putParasite(makeClient(transport, sleeps: sleeps))

        guard case .serviceUnavailable(let answer) = output else {
            Issue.record("expected the last 503, got \(output)")
            return
        }
        #expect(try answer.body.applicationProblemJson.status == 503)
        #expect(await transport.sent.count == 4)
        // Exponential from 0.5 s, with equal jitter: each wait is between half and all of 0.5, 1, 2 s.
        let waits = await sleeps.sleeps
        #expect(waits.count == 3)
        for (index, wait) in waits.enumerated() {
            let full = 0.5 * Double(1 << index)
            #expect(wait >= .seconds(full / 2) && wait <= .seconds(full), "wait \(index + 1): \(wait)")
        }
    }

    @Test func aTransportErrorIsRetried() async throws {
        let transport = FakeTransport([.failure(FakeTransport.Offline()), .json(200, Self.movieList)])
        let sleeps = SleepRecorder()
        let output = try await makeClient(transport, sleeps: sleeps).listMovies(query: .init(year: 2019))

        #expect(try output.ok.body.json.movies.count == 1)
        #expect(await transport.sent.count == 2)
        #expect(await sleeps.sleeps.count == 1)
    }

    @Test func theLastTransportErrorIsRethrown() async throws {
        let transport = FakeTransport(Array(repeating: .failure(FakeTransport.Offline()), count: 4))
        let client = makeClient(transport)
        let error = await #expect(throws: ClientError.self) {
            _ = try await client.listMovies(query: .init(year: 2019))
        }
        #expect(error?.underlyingError is FakeTransport.Offline)
        #expect(await transport.sent.count == 4)
    }

    @Test func cancellationIsNotRetried() async throws {
        let transport = FakeTransport([.failure(CancellationError()), .json(200, Self.movieList)])
        let client = makeClient(transport)
        await #expect(throws: ClientError.self) {
            _ = try await client.listMovies(query: .init(year: 2019))
        }
        #expect(await transport.sent.count == 1)
    }

    @Test func theGeneratedBodyIsResentIdentically() async throws {
        let transport = FakeTransport([.problem(503), .json(200, Self.libraryEntry)])
        _ = try await putParasite(makeClient(transport), note: "Bong Joon-ho 🎬")

        let bodies = await transport.sent.map(\.body)
        #expect(bodies.count == 2)
        let first = try #require(bodies[0])
        #expect(bodies[1] == first)
        let change = try JSONDecoder().decode(Components.Schemas.LibraryChange.self, from: Data(first))
        #expect(change == .init(favorite: true, note: "Bong Joon-ho 🎬"))
    }
}

/// `RetryMiddleware` on its own: bodies that can be read once, `Retry-After` values, backoff.
@Suite struct RetryMiddlewareTests {
    let request = HTTPRequest(method: .post, scheme: "https", authority: "popcorn.test", path: "/api/v1/diary")
    let baseURL = URL(string: "https://popcorn.test")!

    /// Records the bytes of each attempt's body and answers 503 until the last answer.
    actor Server {
        var bodies: [[UInt8]] = []
        let statuses: [Int]

        init(statuses: [Int]) {
            self.statuses = statuses
        }

        func receive(_ body: HTTPBody?) async throws -> (HTTPResponse, HTTPBody?) {
            bodies.append(try await [UInt8](collecting: body!, upTo: 1 << 20))
            return (HTTPResponse(status: .init(code: statuses[bodies.count - 1])), nil)
        }
    }

    static func oneTimeBody(_ chunks: [String], length: HTTPBody.Length = .unknown) -> HTTPBody {
        let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
            for chunk in chunks { continuation.yield(HTTPBody.ByteChunk(chunk.utf8)) }
            continuation.finish()
        }
        return HTTPBody(stream, length: length)
    }

    @Test func aOneTimeBodyIsResentIdentically() async throws {
        let body = Self.oneTimeBody([#"{"titleId":496243,"#, #""date":"2026-11-25"}"#])
        #expect(body.iterationBehavior == .single)
        let server = Server(statuses: [503, 429, 201])
        let middleware = RetryMiddleware(policy: SleepRecorder().policy())

        let (response, _) = try await middleware.intercept(request, body: body, baseURL: baseURL, operationID: "logWatch") {
            _, body, _ in try await server.receive(body)
        }

        #expect(response.status == .created)
        let bodies = await server.bodies
        #expect(bodies.count == 3)
        #expect(Set(bodies) == [Array(#"{"titleId":496243,"date":"2026-11-25"}"#.utf8)])
    }

    @Test func aOneTimeBodyLongerThanTheBufferIsSentOnce() async throws {
        let body = Self.oneTimeBody(["0123456789"], length: .known(10))
        let server = Server(statuses: [503, 201])
        var policy = SleepRecorder().policy()
        policy.maxBufferedBodyBytes = 4
        let middleware = RetryMiddleware(policy: policy)

        let (response, _) = try await middleware.intercept(request, body: body, baseURL: baseURL, operationID: "logWatch") {
            _, body, _ in try await server.receive(body)
        }

        #expect(response.status == .serviceUnavailable)
        #expect(await server.bodies.count == 1)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() throws {
        let now = try Date("2026-11-25T08:30:00Z", strategy: .iso8601)
        #expect(RetryMiddleware.retryAfter("2", now: now) == .seconds(2))
        #expect(RetryMiddleware.retryAfter(" 120 ", now: now) == .seconds(120))
        #expect(RetryMiddleware.retryAfter("Wed, 25 Nov 2026 08:30:10 GMT", now: now) == .seconds(10))
        #expect(RetryMiddleware.retryAfter("Wednesday, 25-Nov-26 08:30:10 GMT", now: now) == .seconds(10))
        #expect(RetryMiddleware.retryAfter("Wed Nov 25 08:30:10 2026", now: now) == .seconds(10))
        #expect(RetryMiddleware.retryAfter("Wed, 25 Nov 2026 08:29:00 GMT", now: now) == .zero)
        #expect(RetryMiddleware.retryAfter("-5", now: now) == nil)
        #expect(RetryMiddleware.retryAfter("soon", now: now) == nil)
        #expect(RetryMiddleware.retryAfter("", now: now) == nil)
    }

    @Test func backoffDoublesWithJitterUpToMaxDelay() {
        let policy = RetryPolicy.default
        #expect(policy.backoff(afterAttempt: 1, jitter: 0) == .seconds(0.25))
        #expect(policy.backoff(afterAttempt: 1, jitter: 1) == .seconds(0.5))
        #expect(policy.backoff(afterAttempt: 2, jitter: 1) == .seconds(1))
        #expect(policy.backoff(afterAttempt: 3, jitter: 0.5) == .seconds(1.5))
        #expect(policy.backoff(afterAttempt: 12, jitter: 1) == .seconds(30))
        #expect(policy.backoff(afterAttempt: 100, jitter: 0) == .seconds(15))
    }
}
