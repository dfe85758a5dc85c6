import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import App

/// A form that comes back with problems says all of them at once, in a summary at the top that
/// links to each field, and each field says it is invalid and points at its own message.
@Suite("Forms: errors tied to their fields")
struct FormErrorTests {
    @Test("sign-up with a bad name and a bad password lists both, each linked to its field, with the rules shown")
    func signUpListsEveryProblem() async throws {
        try await TestApp.with { app in
            try await app.test { client in
                let form = try await client.get("/account/signup").text
                #expect(form.contains(#"id="account-username-rules""#) && form.contains(#"id="account-password-rules""#))
                #expect(!form.contains("error-summary") && !form.contains("aria-invalid"))
                let page = try await client.postForm("/account/signup", [("username", "x!"), ("password", "short")])
                #expect(page.status == .unprocessableContent)
                #expect(page.text.contains(#"<h2 id="error-summary-title">There are 2 problems</h2>"#))
                let summary = try #require(page.text.components(separatedBy: #"class="error-summary""#).last?.components(separatedBy: "</div>").first)
                let links = summary.components(separatedBy: #"<a href=""#).dropFirst().map { $0.prefix { $0 != "\"" } }
                #expect(links == ["#account-username", "#account-password"], "in the form's order")
                #expect(summary.contains("Usernames have 3 to 32 letters") && summary.contains("Use at least 12 characters"))
                for field in ["account-username", "account-password"] {
                    let input = try #require(page.text.components(separatedBy: #"id="\#(field)""#).dropFirst().first?.prefix { $0 != ">" })
                    #expect(input.contains(#"aria-invalid="true""#) && input.contains("\(field)-error"), "\(field): \(input)")
                    #expect(page.text.contains(#"<p class="form-error" id="\#(field)-error">"#))
                }
            }
        }
    }

    @Test("the summary puts the form's own problem first, unlinked, then the fields in order")
    func summaryOrder() throws {
        let errors = ["weight": "1 to 10.", "form": "Not saved.", "headline": "Required."]
        let summary = try #require(ErrorSummary(errors, keys: ["headline", "price", "weight"], idPrefix: "offer-"))
        #expect(summary.items.map(\.message) == ["Not saved.", "Required.", "1 to 10."])
        #expect(summary.items.map(\.href) == [nil, "#offer-headline", "#offer-weight"])
        #expect(summary.title == "There are 3 problems")
        #expect(ErrorSummary([:], keys: ["headline"], idPrefix: "offer-") == nil)
    }
}
