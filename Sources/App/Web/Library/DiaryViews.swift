import Foundation
import Mustache

/// One watch as the diary and a title's page show it.
struct WatchView {
    let title: String
    let detailURL: String
    let dayISO: String
    let dayText: String
    // Not "stars", "words" or "note": a watch without them would show its title's (Mustache looks a
    // missing name up in the page around it, and a film's page has a note).
    let watchStars: String?
    let watchWords: String?
    let watchNote: String?
    let isRewatch: Bool
    let deleteURL: String
    let editURL: String
    let confirmDeleteURL: String
    let returnTo: String
    /// The delete dialog's words: what leaves the diary, and whether the title stays in the lists.
    let deleteText: String

    init(_ watch: Watch, returnTo: String, titleSaved: Bool) {
        // An episode's watch names the episode and opens its page.
        title = watch.title + (watch.episode.map { " \($0.code) “\($0.name)”" } ?? "")
        detailURL = watch.episode.map { Route.episode.link($0.id) } ?? Route.titlePage(watch.kind, watch.itemID)
        dayISO = watch.day
        dayText = Self.longDay(watch.day)
        watchStars = watch.rating.map(Rating.stars)
        watchWords = watch.rating.map { "Rated " + Rating.words($0) }
        watchNote = watch.note
        isRewatch = watch.isRewatch
        deleteURL = Route.watchLink(.deleteWatch, watch.id)
        editURL = Route.watchLink(.editWatch, watch.id, returnTo: returnTo)
        confirmDeleteURL = Route.watchLink(.confirmDeleteWatch, watch.id, returnTo: returnTo)
        self.returnTo = returnTo
        deleteText = Self.deleteText(title: title, dayText: dayText, titleSaved: titleSaved && watch.episode == nil)
    }

    static func deleteText(title: String, dayText: String, titleSaved: Bool) -> String {
        "Your watch of “\(title)” on \(dayText) leaves the diary." + (titleSaved ? " The title stays in your lists." : "")
    }

    /// "24 November 2026" for `2026-11-24`.
    /// Written from the day's digits (fifty a diary page; `UTCFormatters.longDay`, ICU's formatter,
    /// writes the same text and was a tenth of a diary page's rendering); `day` itself when it is
    /// not a day of the calendar (`2026-02-30` too, which the formatter took for 2 March).
    static func longDay(_ day: String) -> String {
        guard UTCFormatters.noon(ofDay: day) != nil else { return day }
        // A day of the calendar, as `dayStyle` writes it: yyyy-MM-dd.
        let parts = day.split(separator: "-")
        guard let month = Int(parts[1]), let number = Int(parts[2]) else { return day }
        return "\(number) \(monthNames[month - 1]) \(parts[0])"
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
}

/// Fifty watches a diary page: looked up without reflection, as the cards are.
extension WatchView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "detailURL": detailURL
        case "dayISO": dayISO
        case "dayText": dayText
        case "watchStars": watchStars
        case "watchWords": watchWords
        case "watchNote": watchNote
        case "isRewatch": isRewatch
        case "deleteURL": deleteURL
        case "editURL": editURL
        case "confirmDeleteURL": confirmDeleteURL
        case "returnTo": returnTo
        case "deleteText": deleteText
        default: nil
        }
    }
}

/// A title's diary on its page (`shared/diary`): its watches, newest first, and the form that logs
/// one on any day up to today (a rewatch is another watch).
struct TitleDiaryView {
    let actionURL: String
    let returnTo: String
    let title: String
    let today: String
    let latest: String
    let ratingOptions: [RatingPicker.Option]
    let watches: [WatchView]
    let hasWatches: Bool
    let submitLabel: String

    init(kind: MediaKind, id: Int, title: String, watches: [Watch], saved: Bool, now: Date) {
        actionURL = Route.logWatch(kind, id)
        returnTo = Route.titlePage(kind, String(id))
        self.title = title
        today = DiaryService.today(now)
        latest = DiaryService.latestToday(now)
        ratingOptions = RatingPicker.options(selected: nil)
        self.watches = watches.map { WatchView($0, returnTo: Route.back(to: Route.titlePage(kind, String(id)), at: "diary"), titleSaved: saved) }
        hasWatches = !watches.isEmpty
        submitLabel = watches.isEmpty ? "Log a watch" : "Log a rewatch"
    }
}

struct DiaryPageView: Page {
    static let template = "library/diary"

    struct Month {
        let heading: String
        let watches: [WatchView]
    }

    let chrome = Chrome("Diary", tab: .library)
    let months: [Month]
    let count: String
    let pager: PagerView?
    let listsURL = Route.libraryList(.all)
    let statsURL = Route.statisticsPage()

    init(_ page: DiaryPage) {
        let returnTo = Route.diaryPage(page.page)
        var months: [Month] = []
        for watch in page.watches {
            let heading = Self.monthHeading(watch.day)
            let view = WatchView(watch, returnTo: returnTo, titleSaved: page.saved.contains("\(watch.kind.rawValue)|\(watch.itemID)"))
            if months.last?.heading == heading {
                months[months.count - 1] = Month(heading: heading, watches: months[months.count - 1].watches + [view])
            } else {
                months.append(Month(heading: heading, watches: [view]))
            }
        }
        self.months = months
        count = page.total == 1 ? "1 watch" : "\(Formats.number(page.total)) watches"
        pager = PagerView(page: page.page, pageCount: page.pageCount, link: Route.diaryPage)
    }

    /// "November 2026" for `2026-11-24`.
    static func monthHeading(_ day: String) -> String { Formats.month(String(day.prefix(7)), .wide) }
}

/// A watch's own form: its day, rating and note (`library/watch_edit`).
struct WatchEditPage: Page {
    static let template = "library/watch_edit"

    let chrome: Chrome
    let title: String
    let dayText: String
    let day: String
    let latest: String
    let note: String
    let ratingOptions: [SelectOption]
    let actionURL: String
    let returnTo: String
    let errorSummary: ErrorSummary?
    let error: String?
    let noteLimit = LibraryService.noteLimit

    init(_ watch: Watch, returnTo: String, now: Date, error: String? = nil) {
        chrome = Chrome("Edit your watch of \(watch.title)", tab: .library)
        title = watch.title
        dayText = WatchView.longDay(watch.day)
        day = watch.day
        latest = DiaryService.latestToday(now)
        note = watch.note ?? ""
        ratingOptions = RatingPicker.options(selected: watch.rating)
        actionURL = Route.watchLink(.saveWatch, watch.id)
        self.returnTo = returnTo
        self.error = error
        errorSummary = error.map { ErrorSummary(["form": $0], fields: []) } ?? nil
    }
}

/// The no-JavaScript confirmation before a watch is deleted (with JavaScript, the confirm dialog).
struct WatchDeletePage: Page {
    static let template = "library/watch_delete"

    let chrome: Chrome
    let message: String
    let actionURL: String
    let returnTo: String

    init(_ watch: Watch, returnTo: String, titleSaved: Bool) {
        chrome = Chrome("Delete this watch?", tab: .library)
        message = WatchView.deleteText(title: watch.title, dayText: WatchView.longDay(watch.day), titleSaved: titleSaved)
        actionURL = Route.watchLink(.deleteWatch, watch.id)
        self.returnTo = returnTo
    }
}

// A watch's nil field (no stars, no note) is looked up again in the views around it, up to the
// page: the title pages' diary and the diary page answer by a switch, as `WatchView` does
// (`PageViewLookupTests` keeps the answers equal to reflection's).

extension TitleDiaryView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "actionURL": actionURL
        case "returnTo": returnTo
        case "title": title
        case "today": today
        case "latest": latest
        case "ratingOptions": ratingOptions
        case "watches": watches
        case "hasWatches": hasWatches
        case "submitLabel": submitLabel
        default: nil
        }
    }
}

extension DiaryPageView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "months": months
        case "count": count
        case "pager": pager
        case "listsURL": listsURL
        case "statsURL": statsURL
        default: nil
        }
    }
}

extension DiaryPageView.Month: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "heading": heading
        case "watches": watches
        default: nil
        }
    }
}
