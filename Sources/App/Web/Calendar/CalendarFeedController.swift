import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A person's private iCal feed, `/calendar/<token>.ics`: asked by calendar apps, with no session
/// or cookie, so it is registered before the visitor's session is looked up. Options as Sonarr's
/// feed: `pastDays` (7), `futureDays` (30, at most 365), `premieresOnly`, `unwatchedOnly`,
/// `asAllDay`. An answer is kept (`Caches.calendarFeeds`) until something on it changes, so a
/// client asking every few minutes costs no database work; `ETag` and `Last-Modified` let it get
/// a 304.
struct CalendarFeedController {
    let calendar: CalendarService
    let feeds: CalendarFeeds
    let answers: DeclaredCache<CalendarFeedKey, CalendarFeedAnswer>
    let changes: ChangeCount
    /// `PUBLIC_URL`, else the address the request was made to.
    let publicURL: String?
    let clock: any AppClock

    /// A kept answer is made again after this long whatever the feed heard (a lost notice).
    static let keptFor: TimeInterval = 6 * 3600

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.on(Route.calendarFeed) { request, context in try await feed(request, context, head: false) }
        router.on(Route.calendarFeedHead) { request, context in try await feed(request, context, head: true) }
    }

    struct Options: Equatable {
        var pastDays = 7
        var futureDays = 30
        var premieresOnly = false
        var unwatchedOnly = false
        var asAllDay = false

        var key: String { "\(pastDays)|\(futureDays)|\(premieresOnly)|\(unwatchedOnly)|\(asAllDay)" }

        static func parse(_ query: [String: String]) throws(FormInput.Invalid) -> Options {
            var options = Options()
            func days(_ name: String, _ fallback: Int) throws(FormInput.Invalid) -> Int {
                guard let raw = query[name] else { return fallback }
                guard let value = Int(raw), (0...365).contains(value) else {
                    throw FormInput.Invalid(message: "“\(name)” must be a number of days from 0 to 365.")
                }
                return value
            }
            func flag(_ name: String) throws(FormInput.Invalid) -> Bool {
                switch query[name]?.lowercased() {
                case nil, "false", "0": return false
                case "true", "1", "": return true
                default: throw FormInput.Invalid(message: "“\(name)” must be true or false.")
                }
            }
            options.pastDays = try days("pastDays", 7)
            options.futureDays = try days("futureDays", 30)
            options.premieresOnly = try flag("premieresOnly")
            options.unwatchedOnly = try flag("unwatchedOnly")
            options.asAllDay = try flag("asAllDay")
            return options
        }
    }

    func feed(_ request: Request, _ context: AppRequestContext, head: Bool) async throws -> Response {
        guard let id = context.parameters.get("id"), id.hasSuffix(".ics") else { return HealthController.text(.notFound, "No such calendar feed.\n") }
        let token = String(id.dropLast(4))
        let options: Options
        do {
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            options = try Options.parse(query)
        } catch {
            return HealthController.text(.badRequest, error.message + "\n")
        }
        let site = SiteAddress.of(publicURL: publicURL, request: request, secure: context.cookies.secure)
        let key = CalendarFeedKey(tokenHash: SessionService.hash(token), options: options.key, site: site)
        let now = clock.now()
        let kept = answers.get(key) {
            $0.day == CalendarService.day(of: now, in: $0.zone) && now.timeIntervalSince($0.lastModified) < Self.keptFor
        }
        let answer: CalendarFeedAnswer
        if let kept {
            answer = kept
        } else {
            let heard = changes.current
            guard let made = try await make(token: token, options: options, site: site, now: now) else {
                return HealthController.text(
                    .notFound, "No such calendar feed: it was turned off or renewed. Copy its new address from your account page.\n")
            }
            answer = made
            if changes.current == heard { answers.put(key, made, bytes: made.bytes) }
        }
        return Self.response(answer, request: request, head: head)
    }

    /// The feed's answer, read from the database; nil for a token that is no feed.
    func make(token: String, options: Options, site: String, now: Date) async throws -> CalendarFeedAnswer? {
        guard let profile = try await feeds.profile(token: token) else { return nil }
        let zone = try await calendar.zone(profile: profile)
        let today = CalendarService.day(of: now, in: zone)
        guard let from = CalendarService.day(today, plus: -options.pastDays), let to = CalendarService.day(today, plus: options.futureDays)
        else { return nil }
        var query = CalendarQuery(from: from, to: to, zone: zone)
        query.premieresOnly = options.premieresOnly
        query.unwatchedOnly = options.unwatchedOnly
        query.summaries = true
        let items = try await calendar.items(profile: profile, query)
        let document = ICalendar(
            name: "PopcornSwirl: TV and films", events: items.map { Self.event($0, site: site, asAllDay: options.asAllDay, zone: zone) })
        // The validator names the events, not the moment they were written (`DTSTAMP`).
        let placeholder = Date(timeIntervalSince1970: 0)
        let unstamped = document.text(stamp: placeholder)
        let etag = "\"" + TextDigest.hex(unstamped).prefix(32) + "\""
        let body = unstamped.replacingOccurrences(of: "DTSTAMP:" + ICalendar.utc(placeholder), with: "DTSTAMP:" + ICalendar.utc(now))
        return CalendarFeedAnswer(
            profile: profile, shows: Set(items.compactMap(\.showID)), body: body, etag: etag, lastModified: now, day: today, zone: zone)
    }

    static func event(_ item: CalendarItem, site: String, asAllDay: Bool, zone: TimeZone) -> ICalendar.Event {
        let url: String
        var description: [String] = []
        switch item.kind {
        case .episode:
            url = site + Route.episode.link(item.id)
            if let mark = item.mark { description.append(mark.rawValue + ".") }
            if let summary = item.summaryHTML.map(HTMLSanitizer.plainText), !summary.isEmpty { description.append(summary) }
        case .movie:
            url = site + Route.movie.link(item.id)
            description.append("Released today.")
        }
        description.append(url)
        let time: ICalendar.Event.Time =
            if item.allDay || asAllDay {
                .day(item.shownDay.isEmpty ? item.localDay(in: zone) : item.shownDay)
            } else {
                .span(start: item.start, end: item.end ?? item.start.addingTimeInterval(30 * 60))
            }
        return ICalendar.Event(
            uid: (item.kind == .episode ? "episode-\(item.id)" : "movie-\(item.id)") + "@popcornswirl",
            time: time, summary: item.kind == .movie ? item.title + " (film)" : item.fullTitle, description: description.joined(separator: "\n\n"),
            url: url, categories: item.network.map { [$0] } ?? [], tentative: item.allDay)
    }

    static func response(_ answer: CalendarFeedAnswer, request: Request, head: Bool) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = answer.etag
        headers[.lastModified] = Self.httpDate(answer.lastModified)
        // A private address: any cache along the way must not keep it for another.
        headers[.cacheControl] = "private, max-age=300"
        if let wanted = request.headers[.ifNoneMatch] {
            if wanted.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == answer.etag || $0 == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
        } else if let since = request.headers[.ifModifiedSince].flatMap(Self.httpDate),
            Int(answer.lastModified.timeIntervalSince1970) <= Int(since.timeIntervalSince1970)
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/calendar; charset=utf-8"
        headers[.contentDisposition] = "inline; filename=\"popcornswirl.ics\""
        let bytes = ByteBuffer(string: answer.body)
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: .ok, headers: headers, body: head ? ResponseBody() : ResponseBody(byteBuffer: bytes))
    }

    /// An HTTP date (RFC 9110 §5.6.7, IMF-fixdate): `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String { httpDates.string(from: date) }
    static func httpDate(_ text: String) -> Date? { httpDates.date(from: text) }
    private static let httpDates: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}
