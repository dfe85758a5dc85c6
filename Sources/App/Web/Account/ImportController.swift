import Foundation
import Hummingbird

/// The import page and its forms. Anyone with lists (visitor or account) imports into their own;
/// every row, job and report is looked up with the person's profile, so another person's is a 404.
struct ImportController {
    let imports: ImportService
    let sessions: SessionService
    let clock: any AppClock
    let renderer: PageRenderer
    /// The uploads being read on this server (one router, one controller).
    let slots = UploadSlots()

    func register(on router: RouterGroup<AppRequestContext>) {
        router.on(Route.imports) { request, context in try await page(request, context) }
        router.on(Route.startImport) { request, context in try await upload(request, context) }
        router.on(Route.importProgress) { _, context in
            guard let profile = context.profileID, let job = try await imports.latest(profile: profile) else {
                return try JSONAnswer.error(.notFound, "You have no import.")
            }
            var response = try JSONAnswer.ok(ImportProgressView(job, now: clock.now()))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.on(Route.cancelImport) { _, context in
            var cancelled = false
            if let profile = context.profileID { cancelled = try await imports.cancel(profile: profile) }
            return .redirect(to: Route.imports.link(query: ["done": cancelled ? "cancelled" : nil]), type: .normal)
        }
        router.on(Route.resolveImportRow) { request, context in try await resolve(request, context) }
        router.on(Route.importReport) { _, context in
            guard let raw = context.parameters.get("id"), let id = UUID(uuidString: raw), let profile = context.profileID,
                let report = try await imports.report(profile: profile, job: id)
            else { throw HTTPError(.notFound, message: "There is no such import of yours.") }
            let day = report.job.createdAt.formatted(UTCFormatters.dayStyle)
            var response = Download.response(Data(), type: Download.csv, name: "popcornswirl-import-report-\(day).csv")
            response.body = ResponseBody { writer in
                try await report.write { try await writer.write(ByteBuffer(string: $0)) }
                try await writer.finish(nil)
            }
            return response
        }
    }

    struct PageQuery: Decodable {
        var page: Int?
        var row: Int?
        var q: String?
        var done: String?
    }

    func page(_ request: Request, _ context: AppRequestContext, error: String? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let query = (try? FormInput.decodeQuery(PageQuery.self, request)) ?? PageQuery()
        guard let profile = context.profileID, let job = try await imports.latest(profile: profile) else {
            return try renderer.for(context).response(
                ImportPage(job: nil, now: clock.now(), queue: [], queuePage: 1, searched: nil, problems: [], kept: [], notice: nil, error: error),
                status: status)
        }
        let pageNumber = max(1, min(query.page ?? 1, 10_000))
        let queue = try await imports.queue(profile: profile, job: job, page: pageNumber)
        var searched: (row: Int, query: String, found: [TitleCandidate])?
        if let row = query.row, let text = query.q, queue.contains(where: { $0.number == row }) {
            searched = (row, String(text.prefix(SearchQuery.maxLength)), await imports.candidates(for: text))
        }
        let problems = try await imports.problems(profile: profile, job: job, limit: ImportPage.problemLimit)
        let kept = try await imports.kept(profile: profile, job: job, limit: ImportPage.problemLimit)
        let view = ImportPage(
            job: job, now: clock.now(), queue: queue, queuePage: pageNumber, searched: searched, problems: problems, kept: kept,
            notice: Self.notice(query.done), error: error)
        return try renderer.for(context).response(view, status: status)
    }

    static func notice(_ done: String?) -> String? {
        switch done {
        case "started": "Your file was read. The import runs on its own: you can leave this page and come back."
        case "cancelled": "The import was cancelled. What it had imported stays; the rest was not imported."
        case "matched": "The row was imported. Rows of the same title take your choice too."
        case "kept": "The row was kept as it is."
        default: nil
        }
    }

    /// An upload: the form token was checked from the address before a byte of the body was read
    /// (`CSRFMiddleware`); then the person's and the address's hourly uploads (`UploadThrottle`), a
    /// slot to read it in (`UploadSlots`), and the body within its deadline and minimum rate. Any
    /// refusal closes the connection rather than wait for the rest of a body nobody will read.
    func upload(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let (profile, cookie) = try await SessionCookie.profileForWrite(context, sessions)
        var context = context
        context.profileID = profile
        func refused(_ message: String, _ status: HTTPResponse.Status, retryAfter: Int? = nil) async throws -> Response {
            var response = try await page(request, context, error: message, status: status)
            response.headers[.connection] = "close"
            if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
            if let cookie { response.setCookie(cookie) }
            return response
        }
        let address = context.clientAddress ?? ""
        if let wait = try await imports.admitUpload(profile: profile, address: context.clientAddress) {
            return try await refused(
                "You have uploaded as many files as can be read in an hour. Try again in \(AccountService.Failure.minutes(wait)).", .tooManyRequests,
                retryAfter: wait)
        }
        let person = profile.uuidString
        do {
            try slots.take(person: person, address: address)
        } catch .yoursInProgress {
            return try await refused("Your earlier upload is still being read: wait for it to finish.", .conflict)
        } catch {
            return try await refused("Other uploads are being read: try again in half a minute.", .tooManyRequests, retryAfter: 30)
        }
        defer { slots.release(person: person, address: address) }
        let form: MultipartForm
        do {
            form = try MultipartForm.parse(try await UploadSlots.read(request, context), contentType: request.headers[.contentType] ?? "")
        } catch is UploadSlots.TooSlow {
            return try await refused(
                "The upload was too slow to finish (\(UploadSlots.minimumRate / 1024) KB a second at least, \(UploadSlots.deadline.components.seconds / 60) minutes at most), "
                    + "so nothing was imported. Try again on a faster connection.", .requestTimeout)
        }
        guard let files = form.fileLists["file"], !files.isEmpty else {
            return try await refused("Choose the export file to import.", .badRequest)
        }
        var response: Response
        do {
            switch try await imports.start(profile: profile, files: files.map { ($0.filename, $0.data) }) {
            case .started: response = .redirect(to: Route.imports.link(query: ["done": "started"]), type: .normal)
            case .busy: return try await refused("Your earlier import is still running: wait for it to finish, or cancel it first.", .conflict)
            }
        } catch let refusal as ImportRefused {
            return try await refused(
                refusal.message, refusal.retryAfter == nil ? .unprocessableContent : .serviceUnavailable, retryAfter: refusal.retryAfter)
        }
        if let cookie { response.setCookie(cookie) }
        return response
    }

    struct ResolveForm: Decodable {
        var row: Int
        var choice: String?
    }

    func resolve(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        guard let raw = context.parameters.get("id"), let job = UUID(uuidString: raw), let profile = context.profileID else {
            throw HTTPError(.notFound, message: "There is no such import of yours.")
        }
        let form = try await FormInput.decode(ResolveForm.self, request, context)
        let outcome: ImportService.Resolved
        let choice = form.choice ?? ""
        if choice == "keep" {
            outcome = try await imports.keep(profile: profile, job: job, number: form.row)
        } else {
            let parts = choice.split(separator: ":")
            guard parts.count == 2, let kind = MediaKind(rawValue: String(parts[0])), let id = Int(parts[1]) else {
                return try await page(request, context, error: "Choose a title for the row, or keep it as it is.", status: .badRequest)
            }
            outcome = try await imports.choose(profile: profile, job: job, number: form.row, kind: kind, id: id)
        }
        switch outcome {
        case .done(let state):
            // Back to the rows still waiting, or to the top (the notice) when none is left.
            let waiting = try await imports.latest(profile: profile).map { $0.id == job && $0.queued > 0 } ?? false
            let done = state == .kept ? "kept" : "matched"
            return .redirect(to: Route.imports.link(query: ["done": done]) + (waiting ? "#needs-a-match" : ""), type: .normal)
        case .notWaiting: throw HTTPError(.notFound, message: "That row of your import is not waiting for a match (any more).")
        case .titleNotFound:
            return try await page(request, context, error: "That title is not in the catalogue (any more): search again.", status: .notFound)
        case .unavailable: return try await page(request, context, error: ErrorTexts.fetchFailed, status: .serviceUnavailable)
        }
    }
}
