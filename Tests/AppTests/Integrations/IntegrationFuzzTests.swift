import Foundation
import SQLKit
import Testing

@testable import App

/// Bodies no media server sends: cut short, bytes flipped, values of the wrong type.
@Suite("Media server integrations: fuzzed bodies")
struct IntegrationFuzzTests {
    @Test("fuzzed bodies of every kind are answered 202, 413 or 422, never 500")
    func fuzzedBodies() async throws {
        try await IntegrationTests.with { app in
            let person = try await app.signedIn("gus")
            var paths: [IntegrationKind: String] = [:]
            for kind in IntegrationKind.allCases { paths[kind] = try await IntegrationTests.integration(app, person.profile, kind).path }
            let fixtures: [(String, IntegrationKind)] = [
                ("plex-episode-scrobble", .plex), ("jellyfin-official-playbackstop", .jellyfin), ("jellyfin-shemanaev-stop", .jellyfin),
                ("emby-playback-stop", .emby), ("emby-unknown-show", .emby),
            ]
            var generator = SystemRandomNumberGenerator()
            var bodies: [(Data, IntegrationKind)] = []
            for (fixture, kind) in fixtures {
                let data = Fixtures.data("integrations/\(fixture).json")
                let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
                for round in 0..<12 {
                    switch round % 4 {
                    case 0:  // cut short
                        bodies.append((data.prefix(Int.random(in: 0..<data.count, using: &generator)), kind))
                    case 1:  // random bytes flipped
                        var bytes = [UInt8](data)
                        for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                        bodies.append((Data(bytes), kind))
                    case 2:  // every value of one key swapped for another type
                        let odd: [Any] = [NSNull(), 42, -1, 1e300, true, "", [1, 2], ["a": "b"], String(repeating: "é", count: 5000)]
                        var changed = object
                        for key in changed.keys.shuffled(using: &generator).prefix(4) { changed[key] = odd.randomElement(using: &generator)! }
                        bodies.append((try JSONSerialization.data(withJSONObject: changed), kind))
                    default:  // nested values swapped too
                        var changed = object
                        for (key, value) in changed {
                            if var inner = value as? [String: Any] {
                                for innerKey in inner.keys.shuffled(using: &generator).prefix(3) {
                                    inner[innerKey] = [NSNull(), 7, "x", [Any]()].randomElement()!
                                }
                                changed[key] = inner
                            }
                        }
                        bodies.append((try JSONSerialization.data(withJSONObject: changed), kind))
                    }
                }
            }
            for _ in 0..<20 {
                let json = [
                    "{", "}", "[", "]", "\"type\"", ":", "\"movie\"", "\"episode\"", ",", "null", "1e999", "\"ids\"", "{\"imdb\": 5}", "\"show\"",
                ]
                bodies.append((Data((0..<12).map { _ in json.randomElement(using: &generator)! }.joined().utf8), .generic))
            }
            let (sending, addresses) = (bodies, paths)
            try await app.test { client in
                for (body, kind) in sending {
                    let response = try await IntegrationTests.post(client, addresses[kind]!, body, kind: kind)
                    #expect(
                        [.accepted, .contentTooLarge, .unprocessableContent].contains(response.status), "\(kind): \(response.status) \(response.text)"
                    )
                }
            }
            try await app.services.integrationWorker.drain()
            let stuck = try await app.services.database.sql.raw("SELECT COUNT(*) AS n FROM integration_events WHERE state = 'pending'")
                .first(decodingColumn: "n", as: Int.self)
            #expect(stuck == 0, "every stored event is settled")
        }
    }
}
