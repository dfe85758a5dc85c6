import Mustache

/// A card as its key in `Caches.cards`: the card's view itself (every field its template reads), so
/// a kept card is never a stale one and nothing needs telling of a change, on this server or
/// another: a page drawn again after one title was rated renders only that title's card.
enum CardKey: Hashable, Sendable {
    case movie(MovieCardView)
    case show(ShowCardView)
    /// An episode's line in a show's list (a season is hundreds of them).
    case episode(EpisodeRowView)
    /// An episode's or a film's line on the Calendar (300 shows put 600 on it).
    case calendarItem(CalendarPage.Item)

    /// A card's bytes and a share for its key (the view's strings: about a third of the card).
    static func bytes(_ html: String) -> Int { html.utf8.count * 3 / 2 }
}

/// A card already rendered: the page's template writes it as it is.
struct RenderedCard: MustacheParent {
    let html: String

    func child(named name: String) -> Any? { name == "html" ? html : nil }
}
