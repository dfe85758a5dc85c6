import Foundation
import Testing

@testable import App

/// The diary, the custom lists' pages, their forms and the message pages answer template lookups
/// by a switch (`MustacheParent`): each stored field as reflection would.
@Suite("List and diary view lookups")
struct ListViewLookupTests {
    typealias Check = MovieCardViewTests

    static let now = PageViewLookupTests.now

    @Test("the diary page, its months and pager answer each stored field as reflection would")
    func diaryPage() {
        let watches = [
            Watch(
                id: UUID(), kind: .movie, itemID: "5", title: "Dune", artworkURL: nil, day: "2026-11-20", rating: 9, note: "Again", isRewatch: true),
            Watch(
                id: UUID(), kind: .show, itemID: "9", title: "The Office", artworkURL: nil, day: "2026-11-02", rating: nil, note: nil,
                isRewatch: false),
            Watch(id: UUID(), kind: .movie, itemID: "5", title: "Dune", artworkURL: nil, day: "2026-10-02", rating: 7, note: nil, isRewatch: false),
        ]
        let page = DiaryPageView(DiaryPage(watches: watches, total: 160, page: 2))
        Check.expectLookupMatchesReflection(page, fields: 6)
        #expect(page.months.count == 2 && page.pager?.previousURL != nil && page.pager?.nextURL != nil)
        for month in page.months {
            Check.expectLookupMatchesReflection(month, fields: 2)
            for watch in month.watches { Check.expectLookupMatchesReflection(watch, fields: 12) { watch.child(named: $0) } }
        }
        Check.expectLookupMatchesReflection(page.pager!, fields: 3)
        Check.expectLookupMatchesReflection(DiaryPageView(DiaryPage(watches: [], total: 0, page: 1)), fields: 6)
    }

    static func list(shared: Bool) -> CustomList {
        CustomList(
            id: UUID(), name: "Sci-fi", description: "Far futures", shareToken: shared ? "tok3n" : nil, itemCount: 130, createdAt: now,
            updatedAt: now)
    }

    static func page(_ list: CustomList) -> CustomListPage {
        let items = (61...63).map { position in
            CustomListItem(
                kind: position == 62 ? .show : .movie, itemID: String(position), title: "Title \(position)", year: 2020 + position % 5,
                artworkURL: "https://is1-ssl.mzstatic.com/\(position).jpg", position: position, note: "Note \(position)", addedAt: now)
        }
        return CustomListPage(list: list, items: items, page: 2)
    }

    static func expectContent(_ content: ListContent) {
        Check.expectLookupMatchesReflection(content, fields: 6)
        for item in content.items { Check.expectLookupMatchesReflection(item, fields: 11) }
        Check.expectLookupMatchesReflection(content.pager!, fields: 3)
        #expect(content.items.allSatisfy { $0.upTo != nil && $0.downTo != nil && $0.year != nil && $0.note != nil })
    }

    @Test("a list's page, its shared page and the index of lists answer each stored field as reflection would")
    func listPages() {
        let forms = [
            ListFormFields(), ListFormFields(name: "", description: "Far", error: .nameMissing),
            ListFormFields(name: "Sci-fi", description: String(repeating: "x", count: 600), error: .descriptionTooLong(500)),
            ListFormFields(name: "Sci-fi", error: .storageFailed("disk")),
        ]
        for form in forms {
            Check.expectLookupMatchesReflection(form, fields: 7)
            if let summary = form.errorSummary {
                Check.expectLookupMatchesReflection(summary, fields: 2)
                for item in summary.items { Check.expectLookupMatchesReflection(item, fields: 2) }
            }
        }
        #expect(forms[1].nameError != nil && forms[2].descriptionError != nil && forms[3].errorSummary?.items.first?.href == nil)
        for list in [Self.list(shared: true), Self.list(shared: false)] {
            for page in [CustomListPageView(Self.page(list)), CustomListPageView(Self.page(list), form: forms[1])] {
                Check.expectLookupMatchesReflection(page, fields: 15)
                Check.expectLookupMatchesReflection(page.form, fields: 7)
                Self.expectContent(page.listContent)
            }
        }
        let shared = SharedListPageView(Self.page(Self.list(shared: true)), token: "tok3n")
        Check.expectLookupMatchesReflection(shared, fields: 2)
        Self.expectContent(shared.listContent)
        for index in [ListsIndexPage([Self.list(shared: true), Self.list(shared: false)], form: forms[2]), ListsIndexPage([])] {
            Check.expectLookupMatchesReflection(index, fields: 9)
            for summary in index.lists { Check.expectLookupMatchesReflection(summary, fields: 5) }
            Check.expectLookupMatchesReflection(index.exportLinks, fields: 3)
        }
    }

    @Test("a message page and its retry form answer each stored field as reflection would")
    func messagePage() {
        let form = RetryForm(action: "/library/movies/5", fields: [("favorite", "1"), ("return_to", "/movies")])
        for page in [
            MessagePage(chrome: Chrome("Oops", tab: nil), heading: "Oops", message: "Failed.", retryURL: "/movies", backURL: "/", retryForm: form),
            MessagePage(chrome: Chrome("Not found", tab: .shows), heading: "Not found", message: "Gone.", retryURL: nil, backURL: "/shows"),
        ] {
            Check.expectLookupMatchesReflection(page, fields: 7)
        }
        Check.expectLookupMatchesReflection(form, fields: 2)
        for field in form.fields { Check.expectLookupMatchesReflection(field, fields: 2) }
    }
}
