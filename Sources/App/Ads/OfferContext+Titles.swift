/// A film's or a show's offers context, as its page and the API place offers for it.
extension OfferContext {
    init(movie: Movie) {
        self.init(
            title: TitleRef(kind: .movie, id: movie.id), name: movie.title, genreNames: movie.genre.map { [$0] } ?? [], synopsis: movie.synopsis)
    }

    init(show: Show) {
        let summary = show.summaryHTML.map(Self.tagsAsSpaces)
        self.init(title: TitleRef(kind: .show, id: show.id), name: show.name, genreNames: show.genres, synopsis: summary)
    }
}

extension OfferContext {
    /// The text of TVMaze's summary HTML for keyword matching: each tag (`<` to the next `>`) a
    /// space, as the pattern `<[^>]*>` replaces it, read byte by byte (Foundation's regular
    /// expression was 8.8 % of a show page's CPU, perf); a `<` with no `>` after it stays.
    static func tagsAsSpaces(_ html: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(html.utf8.count)
        // Inside a tag: its bytes so far, from its `<`.
        var pending: [UInt8]?
        for byte in html.utf8 {
            if pending != nil {
                pending!.append(byte)
                if byte == UInt8(ascii: ">") {
                    out.append(UInt8(ascii: " "))
                    pending = nil
                }
            } else if byte == UInt8(ascii: "<") {
                pending = [byte]
            } else {
                out.append(byte)
            }
        }
        out += pending ?? []  // an unclosed `<…`: kept as text
        return String(decoding: out, as: UTF8.self)
    }
}
