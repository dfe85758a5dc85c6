import Foundation
import Testing

@testable import App

/// The film, show, search and offer pages answer template lookups by a switch (`MustacheParent`):
/// every view and every view nested in it answers each stored field as reflection would.
@Suite("Page view lookups")
struct PageViewLookupTests {
    typealias Check = MovieCardViewTests

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static let movie = Movie(
        id: 5, title: "Dune", director: "Denis Villeneuve", genre: "Science Fiction", releaseDate: ITunesDates.parse("2021-10-22"),
        synopsis: "Spice.", shortDescription: "Short.", contentRating: "PG-13", runtimeMinutes: 155, price: 9.99, currency: "USD",
        storeURL: "https://itunes.apple.com/us/movie/dune/id5", previewURL: "https://video-ssl.itunes.apple.com/dune.m4v",
        artworkURL: "https://is1-ssl.mzstatic.com/dune.jpg")

    static func saved(_ kind: MediaKind, _ id: Int, _ title: String) -> LibraryItem {
        LibraryItem(
            kind: kind, itemID: String(id), title: title, genre: "Drama", releaseDate: ITunesDates.parse("2021-10-22"),
            artworkURL: "https://is1-ssl.mzstatic.com/a.jpg", favorite: true, watched: true, note: "Loved it", rating: 8, updatedAt: now)
    }

    /// Two watches (one rated with a note, one rewatch without) and two lists, one holding the title.
    static let personal: PersonalTitleState = {
        let watches = [
            Watch(
                id: UUID(), kind: .movie, itemID: "5", title: "Dune", artworkURL: nil, day: "2026-11-20", rating: 9, note: "Again", isRewatch: true),
            Watch(id: UUID(), kind: .movie, itemID: "5", title: "Dune", artworkURL: nil, day: "2026-01-02", rating: nil, note: nil, isRewatch: false),
        ]
        let lists = ["Sci-fi", "Long films"].map { ListName(id: UUID(), name: $0) }
        return PersonalTitleState(watches: watches, lists: lists, holding: [lists[0].id])
    }()

    static let offers: OfferService.TitleOffers = {
        let shop = Advertiser(
            id: 1, name: "Spice Shop", description: "Things from Arrakis.", website: "https://shop.example.com", domains: ["shop.example.com"],
            logoImageID: UUID(), demo: true)
        var offer = OfferFixtures.offer(3)
        offer.imageID = UUID()
        offer.demo = true
        let place = { (placement: Placement) in
            PlacedOffer(offer: offer, advertiser: shop, title: TitleRef(kind: .movie, id: 5), placement: placement, listing: "movies")
        }
        return OfferService.TitleOffers(banner: place(.banner), shops: [place(.shop), place(.shop)])
    }()

    /// What every detail page holds besides its own fields.
    static func expectSections(diary: TitleDiaryView, lists: TitleListsView, chrome: Chrome) {
        let offers = TitleOffersView(Self.offers)
        Check.expectLookupMatchesReflection(diary, fields: 9)
        for watch in diary.watches { Check.expectLookupMatchesReflection(watch, fields: 12) { watch.child(named: $0) } }
        Check.expectLookupMatchesReflection(lists, fields: 8)
        for held in lists.held { Check.expectLookupMatchesReflection(held, fields: 3) }
        Check.expectLookupMatchesReflection(offers, fields: 3)
        for offer in offers.shops + [offers.banner!] { Check.expectLookupMatchesReflection(offer, fields: 10) }
        Check.expectLookupMatchesReflection(chrome.notice!, fields: 2)
        Check.expectLookupMatchesReflection(chrome.notice!.savedOn!, fields: 2)
        #expect(diary.watches.count == 2 && lists.held.count == 1 && offers.shops.count == 2)
    }

    @Test("the Movies page, a film's page and its note page answer each stored field as reflection would")
    func moviePages() {
        let cards = [RenderedCard(html: "<article class=\"card\">Dune</article>")]
        for page in [
            MoviesPage(year: 2021, currentYear: 2026, cards: cards, source: .stale(savedOn: Self.now)),
            MoviesPage(year: 2021, currentYear: 2026, cards: [], source: nil, error: "iTunes can’t be reached."),
        ] {
            Check.expectLookupMatchesReflection(page, fields: 9)
            for year in page.years { Check.expectLookupMatchesReflection(year, fields: 2) }
        }
        let page = MovieDetailPage(
            movie: Self.movie, source: .stale(savedOn: Self.now), saved: Self.saved(.movie, 5, "Dune"), personal: Self.personal, now: Self.now)
        Check.expectLookupMatchesReflection(page, fields: 24)
        #expect(page.previewURL != nil && page.price != nil && page.note != nil)
        Self.expectSections(diary: page.titleDiary, lists: page.titleLists, chrome: page.chrome)
        let empty = MovieDetailPage(
            movie: Movie(id: 6, title: "Bare"), source: .offlineCatalogue, saved: nil, personal: PersonalTitleState(), now: Self.now)
        Check.expectLookupMatchesReflection(empty, fields: 24)
        Check.expectLookupMatchesReflection(TitleOffersView(.none), fields: 3)
        Check.expectLookupMatchesReflection(TitleOffersSection(offers: TitleOffersView(Self.offers)), fields: 1)
        let note = NotePage(id: 5, title: "Dune", note: "Loved it", returnTo: "/library", error: "Too long.")
        Check.expectLookupMatchesReflection(note, fields: 8)
    }

    @Test("the TV pages and a show's page answer each stored field as reflection would")
    func showPages() {
        var show = Show(id: 9, name: "The Office", genres: ["Comedy"], scheduleDays: ["Thursday"])
        show.tvmazeURL = "https://www.tvmaze.com/shows/9/the-office"
        show.type = "Scripted"
        show.language = "English"
        show.status = "Ended"
        show.runtimeMinutes = 22
        show.premiered = "2005-03-24"
        show.ended = "2013-05-16"
        show.officialSite = "https://www.nbc.com/the-office"
        show.scheduleTime = "21:00"
        show.rating = 8.6
        show.network = "NBC"
        show.networkCountry = "US"
        show.webChannel = "Peacock"
        show.imdbID = "tt0386676"
        show.imageMedium = "https://static.tvmaze.com/m.jpg"
        show.imageOriginal = "https://static.tvmaze.com/o.jpg"
        show.summaryHTML = "<p>A <b>mockumentary</b>.</p>"
        for card in [
            ShowCardView(show: show, saved: false, returnTo: "/shows"), ShowCardView(item: Self.saved(.show, 9, "The Office"), returnTo: "/"),
        ] {
            Check.expectLookupMatchesReflection(card, fields: 12) { card.child(named: $0) }
        }
        let cards = [RenderedCard(html: "<article class=\"card show-card\">The Office</article>")]
        for page in [
            ShowsPage(cards: cards, source: .stale(savedOn: Self.now), query: "office", page: 2, isEnd: false),
            ShowsPage(cards: [], source: .offlineCatalogue, query: nil, page: nil, isEnd: true),
        ] {
            Check.expectLookupMatchesReflection(page, fields: 11)
        }
        for tab in [ShowTabs.Tab.browse, .upNext, .calendar, .favorites] { Check.expectLookupMatchesReflection(ShowTabs(tab), fields: 8) }
        let favorites = ShowFavoritesPage(cards: cards, page: LibraryPage(items: [Self.saved(.show, 9, "The Office")], total: 130, page: 2))
        Check.expectLookupMatchesReflection(favorites, fields: 8)
        #expect(favorites.previousURL != nil && favorites.nextURL != nil)
        let page = ShowDetailPage(
            show: show, source: .stale(savedOn: Self.now), saved: Self.saved(.show, 9, "The Office"), personal: Self.personal,
            episodes: nil, now: Self.now)
        Check.expectLookupMatchesReflection(page, fields: 18)
        #expect(page.summaryHTML != nil && page.imdbURL != nil && page.facts.count == 11)
        for fact in page.facts { Check.expectLookupMatchesReflection(fact, fields: 2) }
        Self.expectSections(diary: page.titleDiary, lists: page.titleLists, chrome: page.chrome)
    }

    @Test("the Calendar page, its days and items answer each stored field as reflection would")
    func calendarPage() {
        let episode = Episode(
            id: 5, showID: 9, position: 0, season: 2, number: 1, kind: .regular, name: "Pilot", airdate: "2026-11-20", airtime: "21:00",
            airstamp: Self.now, runtimeMinutes: 30, summaryHTML: nil, imageMedium: nil)
        let items = [
            CalendarItem(
                kind: .episode, id: 5, title: "The Office", showID: 9, episode: episode, network: "NBC", start: Self.now, end: nil, allDay: false,
                day: nil, watched: true, mark: .seasonPremiere, summaryHTML: nil),
            CalendarItem(
                kind: .movie, id: 7, title: "Dune", showID: nil, episode: nil, network: nil, start: Self.now, end: nil, allDay: true,
                day: "2026-11-21", watched: false, mark: nil, summaryHTML: nil),
        ]
        let page = CalendarPage(
            items: items, zone: TimeZone(identifier: "Europe/Paris")!, zoneSource: .browser, today: "2026-11-17", now: Self.now, signedIn: true,
            row: { "<li>\($0.title)</li>" })
        Check.expectLookupMatchesReflection(page, fields: 11)
        #expect(page.days.map(\.anchor) == ["day-2026-11-17", "day-2026-11-18", "day-2026-11-21"], "today, with nothing, before the days with items")
        #expect(page.days.map(\.hasItems) == [false, true, true])
        for day in page.days { Check.expectLookupMatchesReflection(day, fields: 5) }
        let time = Date.FormatStyle(timeZone: TimeZone(identifier: "Europe/Paris")!).hour().minute()
        for item in items { Check.expectLookupMatchesReflection(CalendarPage.item(item, time: time, now: Self.now, returnTo: "/"), fields: 18) }
    }

    @Test("the search page, its messages, best match and recent searches answer each stored field as reflection would")
    func searchPage() {
        let details = OMDbDetails(
            imdbID: "tt1160419", title: "Dune", year: "2021", rated: "PG-13", released: "22 Oct 2021", runtime: "155 min", genre: "Sci-Fi",
            director: "Denis Villeneuve", writer: "Jon Spaihts", actors: "Timothée Chalamet, Rebecca Ferguson", plot: "A noble family.",
            posterURL: "https://m.media-amazon.com/p.jpg", imdbRating: "8.0", imdbVotes: "900,000", type: "movie")
        let best = BestMatchView(movie: Self.movie, details: details, saved: Self.saved(.movie, 5, "Dune"), returnTo: "/search?q=dune")
        let messages = [
            SearchMessage(.error, "The search failed", heading: "Oops", retryURL: "/search?q=dune", moment: Moment(Self.now)),
            SearchMessage(.info, "Showing your last search."),
        ]
        let page = SearchPage(
            query: "dune", messages: messages, source: .stale(savedOn: Self.now), bestHeading: "Best match", best: best,
            otherCards: [MovieCardView(movie: Movie(id: 7, title: "Dune Part Two"), state: nil, returnTo: "/search?q=dune")],
            showCards: [ShowCardView(show: Show(id: 9, name: "Dune: Prophecy"), saved: false, returnTo: "/search?q=dune")], flash: "Added"
        ).withHistory([SearchHistoryEntry(id: UUID(), query: "dune", searchedAt: Self.now)], returnTo: "/search")
        Check.expectLookupMatchesReflection(page, fields: 13)
        #expect(page.hasHistory && page.hasOthers && page.hasShows)
        for message in page.messages { Check.expectLookupMatchesReflection(message, fields: 7) }
        Check.expectLookupMatchesReflection(messages[0].moment!, fields: 2)
        Check.expectLookupMatchesReflection(best, fields: 18)
        for recent in page.history {
            Check.expectLookupMatchesReflection(recent, fields: 5)
            Check.expectLookupMatchesReflection(recent.when, fields: 2)
        }
        for group in page.otherGroups { Check.expectLookupMatchesReflection(group, fields: 2) }
        for group in page.showGroups { Check.expectLookupMatchesReflection(group, fields: 2) }
        Check.expectLookupMatchesReflection(page.chrome.notice!, fields: 2)
        Check.expectLookupMatchesReflection(SearchPage(query: "", messages: []), fields: 13)
        let bare = BestMatchView(movie: Movie(id: 8, title: "Bare"), details: nil, saved: nil, returnTo: "/search")
        Check.expectLookupMatchesReflection(bare, fields: 18)
    }

    @Test("a sponsored card answers each stored field as reflection would")
    func offerCard() {
        for offer in Self.offers.shops + [Self.offers.banner!] { Check.expectLookupMatchesReflection(OfferCardView(offer), fields: 10) }
    }
}
