import Foundation
import HummingbirdTesting
import PopcornAPI
import Testing

@testable import App

/// A watch can be changed (day, rating, note) and is deleted only after a confirmation; someone
/// else's watch is a 404.
@Suite("Library: editing and deleting watches")
struct DiaryEditTests {
    static func logged(_ app: TestApp, _ client: some TestClientProtocol) async throws -> (cookie: String, id: UUID) {
        let cookie = try await app.visitor()
        _ = try await client.postForm("/library/movies/1001/watches", [("day", "2024-05-01"), ("rating", "6"), ("note", "Rainy")], cookie: cookie)
        let watch = try #require(try await app.services.diary.page(profile: try await app.profile(cookie), page: 1).watches.first)
        return (cookie, watch.id)
    }

    @Test("the edit form changes the day, rating and note; a future day is refused on the form and nothing changes")
    func edit() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (cookie, id) = try await Self.logged(app, client)
                let path = "/diary/\(id.uuidString.lowercased())"
                let diary = try await client.get("/diary", cookie: cookie).text
                #expect(diary.contains(#"href="\#(path)/edit?return_to=/diary""#) && diary.contains(#"href="\#(path)/delete?return_to=/diary""#))
                let form = try await client.get(path + "/edit?return_to=/diary", cookie: cookie).text
                #expect(
                    form.contains(#"value="2024-05-01""#) && form.contains(#"<option value="6" selected>3 stars</option>"#)
                        && form.contains(">Rainy</textarea>"))

                let future = try await client.postForm(
                    path, [("day", "2999-01-01"), ("rating", "6"), ("note", "x"), ("return_to", "/diary")], cookie: cookie)
                #expect(future.status == .unprocessableContent && future.text.contains("has not happened yet"))
                let saved = try await client.postForm(
                    path, [("day", "2024-04-30"), ("rating", "0"), ("note", "Sunny"), ("return_to", "/diary")], cookie: cookie)
                #expect(saved.status == .seeOther && saved.headers[.location] == "/diary")
                let watch = try #require(try await app.services.diary.watch(profile: try await app.profile(cookie), id: id))
                #expect(watch.day == "2024-04-30" && watch.rating == nil && watch.note == "Sunny")

                let stranger = try await app.visitor()
                #expect(try await client.get(path + "/edit", cookie: stranger).status == .notFound)
                #expect(try await client.postForm(path, [("day", "2020-01-01")], cookie: stranger).status == .notFound)
                let api = try await client.sendJSON("/api/v1/diary/\(id.uuidString.lowercased())", method: .put, #"{"rating": 9}"#, cookie: cookie)
                let entry = try APITests.decode(Schemas.DiaryEntry.self, api)
                #expect(entry.rating == 9 && entry.date == "2024-04-30" && entry.note == "Sunny", "left-out fields keep their value")
                let theirs = try await client.sendJSON(
                    "/api/v1/diary/\(id.uuidString.lowercased())", method: .put, #"{"rating": 1}"#, cookie: stranger)
                #expect(theirs.status == .notFound)
            }
        }
    }

    @Test("Delete asks first: a confirmation page names the watch, and only its form deletes")
    func confirmDelete() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let (cookie, id) = try await Self.logged(app, client)
                let path = "/diary/\(id.uuidString.lowercased())"
                let page = try await client.get(path + "/delete?return_to=/movies/1001%23diary", cookie: cookie)
                #expect(page.status == .ok && page.text.contains("<h1>Delete this watch?</h1>") && page.text.contains("1 May 2024"))
                #expect(page.text.contains(#"<a class="btn" href="/movies/1001#diary">Cancel</a>"#))
                #expect(
                    try await app.services.diary.watch(profile: try await app.profile(cookie), id: id) != nil, "looking at the page deletes nothing")
                let deleted = try await client.postForm(path + "/delete", [("return_to", "/movies/1001#diary")], cookie: cookie)
                #expect(deleted.status == .seeOther && deleted.headers[.location] == "/movies/1001#diary")
                #expect(try await app.services.diary.watch(profile: try await app.profile(cookie), id: id) == nil)
            }
        }
    }
}
