import Foundation

/// What the console (or the admin API) submits for a shop, before validation.
public struct AdvertiserDraft: Sendable {
    public var name = ""
    public var description = ""
    public var website = ""
    /// One host per line (commas and spaces also separate).
    public var domains = ""

    public init() {}
}

/// What the console (or the admin API) submits for an offer, before validation.
public struct OfferDraft: Sendable {
    public var advertiserID = ""
    public var headline = ""
    public var description = ""
    public var priceText = ""
    public var landingURL = ""
    public var genres: [String] = []
    /// Comma- or line-separated.
    public var keywords = ""
    public var media = OfferMedia.both.rawValue
    public var startsOn = ""
    public var endsOn = ""
    public var weight = "5"
    public var active = true

    public init() {}
}

/// Field name → what is wrong with it, in words for the form.
public struct ValidationFailure: Error, Sendable {
    public let problems: [String: String]

    public var summary: String {
        problems.sorted { $0.key < $1.key }.map(\.value).joined(separator: " ")
    }
}

/// An uploaded logo or product image, checked by its first bytes (not its claimed type).
public struct UploadedImage: Sendable {
    public static let maxBytes = 48 * 1024
    public let contentType: String
    public let bytes: Data

    /// PNG, JPEG or WebP up to `maxBytes`; nil otherwise. No SVG: a shop's SVG could carry script.
    public init?(bytes: Data) {
        guard !bytes.isEmpty, bytes.count <= Self.maxBytes else { return nil }
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            contentType = "image/png"
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            contentType = "image/jpeg"
        } else if head.count == 12, head[0..<4] == [0x52, 0x49, 0x46, 0x46], head[8..<12] == [0x57, 0x45, 0x42, 0x50] {
            contentType = "image/webp"
        } else {
            return nil
        }
        self.bytes = bytes
    }
}

/// The console's rules, shared by the HTML forms and the admin API.
enum OfferRules {
    static let nameLimit = 60
    static let advertiserDescriptionLimit = 300
    static let headlineLimit = 70
    static let offerDescriptionLimit = 240
    static let priceLimit = 30
    static let urlLimit = 2000
    static let keywordLimit = 40
    static let keywordCount = 10
    static let domainCount = 10
    static let weightRange = 1...10

    struct ValidAdvertiser {
        let name, description, website: String
        let domains: [String]
    }

    struct ValidOffer {
        let advertiserID: Int
        let headline, description, priceText, landingURL: String
        let genres, keywords: [String]
        let media: OfferMedia
        let startsOn, endsOn: String
        let weight: Int
        let active: Bool
    }

    static func validate(_ draft: AdvertiserDraft) -> Result<ValidAdvertiser, ValidationFailure> {
        var problems: [String: String] = [:]
        let name = clean(draft.name)
        let description = clean(draft.description)
        text(name, "name", "Name", 1...nameLimit, &problems)
        text(description, "description", "Description", 0...advertiserDescriptionLimit, &problems)
        let domains = draft.domains.lowercased()
            .split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        if domains.isEmpty || domains.count > domainCount {
            problems["domains"] = "List 1 to \(domainCount) domains the shop’s links may point to, such as shop.example."
        } else if let bad = domains.first(where: { !isHostname($0) }) {
            problems["domains"] = "“\(bad.prefix(60))” is not a domain name (letters, digits, hyphens and dots, such as shop.example)."
        }
        let website = draft.website.trimmingCharacters(in: .whitespaces)
        if let problem = httpsProblem(website, allowed: domains, label: "Website") { problems["website"] = problem }
        guard problems.isEmpty else { return .failure(ValidationFailure(problems: problems)) }
        return .success(ValidAdvertiser(name: name, description: description, website: website, domains: Array(Set(domains)).sorted()))
    }

    static func validate(_ draft: OfferDraft, advertisers: [Int: Advertiser]) -> Result<ValidOffer, ValidationFailure> {
        var problems: [String: String] = [:]
        let advertiser = Int(draft.advertiserID).flatMap { advertisers[$0] }
        if advertiser == nil { problems["advertiser"] = "Choose the shop this offer belongs to." }
        let headline = clean(draft.headline)
        let description = clean(draft.description)
        let price = clean(draft.priceText)
        text(headline, "headline", "Headline", 1...headlineLimit, &problems)
        text(description, "description", "Description", 1...offerDescriptionLimit, &problems)
        text(price, "price", "Price", 1...priceLimit, &problems)
        let landing = draft.landingURL.trimmingCharacters(in: .whitespaces)
        if let advertiser, let problem = httpsProblem(landing, allowed: advertiser.domains, label: "Landing page") {
            problems["landing"] = problem
        }
        let genres = Array(Set(draft.genres)).sorted()
        if let bad = genres.first(where: { !Genres.keys.contains($0) }) {
            problems["genres"] = "“\(bad.prefix(30))” is not one of the genres listed."
        }
        let keywords = Array(
            Set(
                draft.keywords.lowercased().split(whereSeparator: { $0 == "," || $0.isNewline })
                    .map { clean(String($0)) }.filter { !$0.isEmpty })
        ).sorted()
        if keywords.count > keywordCount {
            problems["keywords"] = "Use at most \(keywordCount) keywords."
        } else if let long = keywords.first(where: { TextRules.length($0) > keywordLimit }) {
            problems["keywords"] = "“\(long.prefix(20))…” is too long: keywords have at most \(keywordLimit) characters."
        }
        let media = OfferMedia(rawValue: draft.media)
        if media == nil { problems["media"] = "Choose films, TV shows or both." }
        let starts = day(draft.startsOn)
        let ends = day(draft.endsOn)
        if starts == nil { problems["starts"] = "Start date: use a date such as 2026-12-01." }
        if ends == nil { problems["ends"] = "End date: use a date such as 2026-12-31." }
        if let starts, let ends, ends < starts { problems["ends"] = "The end date must be on or after the start date." }
        let weight = Int(draft.weight.trimmingCharacters(in: .whitespaces))
        if weight.map(weightRange.contains) != true { problems["weight"] = "Weight is a whole number from 1 to 10." }
        guard problems.isEmpty, let advertiser, let media, let starts, let ends, let weight else {
            return .failure(ValidationFailure(problems: problems))
        }
        return .success(
            ValidOffer(
                advertiserID: advertiser.id, headline: headline, description: description, priceText: price, landingURL: landing,
                genres: genres, keywords: keywords, media: media, startsOn: starts, endsOn: ends, weight: weight, active: draft.active
            ))
    }

    /// Trimmed, whitespace runs made single spaces, control characters dropped.
    static func clean(_ text: String) -> String {
        text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) || $0 == "\n" }
            .reduce(into: "") { $0.unicodeScalars.append($1) }
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func text(_ value: String, _ field: String, _ label: String, _ range: ClosedRange<Int>, _ problems: inout [String: String]) {
        let length = TextRules.length(value)
        if length < range.lowerBound {
            problems[field] = "\(label) is required."
        } else if length > range.upperBound {
            problems[field] = "\(label) has \(length) characters; the limit is \(range.upperBound)."
        } else if TextRules.hasBidiControl(value) {
            problems[field] = "\(label) can’t hold text-direction control characters (U+202A–U+202E, U+2066–U+2069)."
        }
    }

    /// nil when `raw` is an https URL on one of `allowed` (or a subdomain of one), else what is wrong.
    static func httpsProblem(_ raw: String, allowed: [String], label: String) -> String? {
        guard !raw.isEmpty else { return "\(label) is required." }
        guard raw.count <= urlLimit, let components = URLComponents(string: raw), let host = components.host?.lowercased(), !host.isEmpty,
            raw.allSatisfy({ !$0.isWhitespace })
        else { return "\(label): “\(raw.prefix(60))” is not a web address." }
        guard components.scheme?.lowercased() == "https" else { return "\(label) must start with https:// (secure links only)." }
        guard components.user == nil, components.password == nil else { return "\(label) must not contain a user name or password." }
        guard allowed.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else {
            return "\(label) must be on one of the shop’s domains (\(allowed.joined(separator: ", "))); “\(host.prefix(60))” is not."
        }
        return nil
    }

    static func isHostname(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.count <= 253 && labels.count >= 2
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }

    /// A real calendar day as `yyyy-MM-dd`, or nil.
    static func day(_ raw: String) -> String? {
        let text = raw.trimmingCharacters(in: .whitespaces)
        guard text.count == 10, let date = UTCFormatters.day.date(from: text), UTCFormatters.day.string(from: date) == text else { return nil }
        return text
    }
}
