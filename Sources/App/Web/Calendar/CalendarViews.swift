import Foundation
import Mustache

/// The Calendar tab: one section per day that has something, today's marked.
struct CalendarPage: Page {
    static let template = "shows/calendar"

    enum ZoneSource { case account, browser, none }

    /// An item's line, rendered once per distinct line (`Caches.cards`, `PageRenderer.calendarRow`).
    struct Item: Hashable, Sendable {
        let id: String
        let isEpisode: Bool
        let title: String
        let titleURL: String
        let episodeCode: String?
        let episodeName: String?
        let episodeURL: String?
        let timeText: String
        let timeISO: String?
        let markText: String?
        let network: String?
        let watched: Bool
        let aired: Bool
        let markURL: String?
        let mark: String
        let checkLabel: String
        let returnTo: String
        let watchedText: String?
    }

    struct Day {
        let anchor: String
        let heading: String
        let isToday: Bool
        let isPast: Bool
        let rows: [RenderedCard]
        var hasItems: Bool { !rows.isEmpty }
    }

    let chrome = Chrome("Calendar", tab: .shows, tvCredit: true)
    let tabs = ShowTabs(.calendar)
    let days: [Day]
    let hasDays: Bool
    let rangeText: String
    let zoneName: String
    let zoneText: String
    /// Whether `app.js` may reload the page once it has set the browser's zone.
    let zoneFromBrowser: Bool
    let zoneIsAccount: Bool
    let accountURL = Route.account.path + "#calendar"
    let emptyMessage: String

    /// `row` draws an item's line (`PageRenderer.calendarRow`).
    init(
        items: [CalendarItem], zone: TimeZone, zoneSource: ZoneSource, today: String, now: Date, signedIn: Bool,
        row: (Item) -> String
    ) {
        zoneName = zone.identifier
        zoneFromBrowser = zoneSource != .account
        zoneIsAccount = zoneSource == .account
        zoneText =
            switch zoneSource {
            case .account: "Days and times in \(zone.identifier), as set on your account."
            case .browser: "Days and times in \(zone.identifier), this browser’s time zone."
            case .none: "Days and times in UTC."
            }
        let returnTo = Route.calendar.path
        var byDay: [(String, [RenderedCard])] = []
        let time = Date.FormatStyle(timeZone: zone).locale(Locale(identifier: "en_GB")).hour(.twoDigits(amPM: .omitted)).minute(.twoDigits)
        for item in items {
            let day = item.shownDay.isEmpty ? item.localDay(in: zone) : item.shownDay
            let view = RenderedCard(html: row(Self.item(item, time: time, now: now, returnTo: returnTo + "#day-\(day)")))
            if byDay.last?.0 == day { byDay[byDay.count - 1].1.append(view) } else { byDay.append((day, [view])) }
        }
        // Today is always there, said empty when nothing airs.
        if !byDay.isEmpty, !byDay.contains(where: { $0.0 == today }) {
            byDay.insert((today, []), at: byDay.firstIndex { $0.0 > today } ?? byDay.count)
        }
        days = byDay.map { day, items in
            Day(
                anchor: "day-\(day)", heading: (day == today ? "Today · " : "") + (Formats.weekday(day) ?? day), isToday: day == today,
                isPast: day < today, rows: items)
        }
        hasDays = !days.isEmpty
        let first = CalendarService.day(today, plus: -7) ?? today
        let last = CalendarService.day(today, plus: 30) ?? today
        rangeText = "From \(Formats.day(first) ?? first) to \(Formats.day(last) ?? last)."
        emptyMessage =
            signedIn || !items.isEmpty
            ? "Nothing airs in these weeks for the shows you follow. Shows you’re watching or have in TV Favorites appear here with their episodes, and films in your Favorites on the day they come out."
            : "Your calendar lists the episodes of the shows you watch or keep in TV Favorites, and the release days of the films in your Favorites. Add a show to TV Favorites, or mark an episode watched, to begin."
    }

    static func item(_ item: CalendarItem, time: Date.FormatStyle, now: Date, returnTo: String) -> Item {
        let timeText = item.allDay ? "All day" : item.start.formatted(time)
        switch item.kind {
        case .movie:
            return Item(
                id: "movie-\(item.id)", isEpisode: false, title: item.title, titleURL: Route.movie.link(item.id), episodeCode: nil, episodeName: nil,
                episodeURL: nil, timeText: "Released", timeISO: nil, markText: "Film", network: nil, watched: item.watched, aired: false,
                markURL: nil, mark: "watch", checkLabel: "", returnTo: returnTo, watchedText: item.watched ? "Watched" : nil)
        case .episode:
            let episode = item.episode!
            let aired = episode.hasAired(by: now)
            let name = "\(item.title) \(episode.code) “\(episode.name)”"
            return Item(
                id: "episode-\(item.id)", isEpisode: true, title: item.title, titleURL: Route.show.link(item.showID ?? 0) + "#episodes",
                episodeCode: episode.code, episodeName: episode.name, episodeURL: Route.episode.link(episode.id), timeText: timeText,
                timeISO: item.allDay ? nil : item.start.formatted(.iso8601), markText: item.mark?.rawValue, network: item.network,
                watched: item.watched, aired: aired, markURL: Route.saveEpisode.link(episode.id), mark: item.watched ? "unwatch" : "watch",
                checkLabel: (item.watched ? "Unmark " : "Mark ") + name + (item.watched ? " (watched)" : " watched"), returnTo: returnTo,
                watchedText: nil)
        }
    }
}

extension CalendarPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "tabs": tabs
        case "days": days
        case "hasDays": hasDays
        case "rangeText": rangeText
        case "zoneName": zoneName
        case "zoneText": zoneText
        case "zoneFromBrowser": zoneFromBrowser
        case "zoneIsAccount": zoneIsAccount
        case "accountURL": accountURL
        case "emptyMessage": emptyMessage
        default: nil
        }
    }
}

extension CalendarPage.Day: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "anchor": anchor
        case "heading": heading
        case "isToday": isToday
        case "isPast": isPast
        case "rows": rows
        case "hasItems": hasItems
        default: nil
        }
    }
}

extension CalendarPage.Item: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "isEpisode": isEpisode
        case "title": title
        case "titleURL": titleURL
        case "episodeCode": episodeCode
        case "episodeName": episodeName
        case "episodeURL": episodeURL
        case "timeText": timeText
        case "timeISO": timeISO
        case "markText": markText
        case "network": network
        case "watched": watched
        case "aired": aired
        case "markURL": markURL
        case "mark": mark
        case "checkLabel": checkLabel
        case "returnTo": returnTo
        case "watchedText": watchedText
        default: nil
        }
    }
}
