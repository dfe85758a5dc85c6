import Foundation
import Hummingbird
import OpenAPIRuntime
import PopcornAPI

/// Custom lists in JSON API v1, over the same service and use case as the lists' pages.
extension APIController {
    typealias ListNotFound = Components.Responses.ListNotFound
    typealias ListRefused = Components.Responses.ListRefused

    func listCustomLists(_ input: Operations.ListCustomLists.Input) async throws -> Operations.ListCustomLists.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        return .ok(.init(body: .json(.init(items: try await actions.lists.lists(profile: profile).map(Components.Schemas.CustomList.init)))))
    }

    func createCustomList(_ input: Operations.CreateCustomList.Input) async throws -> Operations.CreateCustomList.Output {
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        guard let session = APIScope.session else { throw APIError.noSession }
        do {
            _ = try CustomListError.validatedName(body.name)
            _ = try CustomListError.validatedDescription(body.description)
            let profile = try await session.profileForWrite()
            let list = try await actions.lists.create(profile: profile, name: body.name, description: body.description)
            return .created(.init(body: .json(.init(list))))
        } catch let refused as VisitorThrottle.Refused {
            let problem = Components.Schemas.Problem(status: 429, detail: refused.message)
            return .tooManyRequests(.init(headers: .init(retryAfter: refused.retryAfter), body: .applicationProblemJson(problem)))
        } catch let error as CustomListError {
            if error.isStorage { return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message)))) }
            return .unprocessableContent(Self.refused(error))
        }
    }

    func getCustomList(_ input: Operations.GetCustomList.Input) async throws -> Operations.GetCustomList.Output {
        guard let profile = APIScope.session?.existing else { return .unauthorized(APIRefusal.signInResponse) }
        let page = input.query.page ?? 1
        guard (1...100_000).contains(page) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("page must be between 1 and 100000."))))
        }
        guard let id = UUID(uuidString: input.path.listId), let found = try await actions.lists.page(profile: profile, id: id, page: page) else {
            return .notFound(Self.listNotFound)
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        list: .init(found.list), page: found.page, pageSize: CustomListPage.pageSize,
                        items: found.items.map(Components.Schemas.CustomListItem.init)))))
    }

    func updateCustomList(_ input: Operations.UpdateCustomList.Input) async throws -> Operations.UpdateCustomList.Output {
        guard case .json(let body) = input.body else { throw HTTPError(.unsupportedMediaType) }
        guard let profile = APIScope.session?.existing, let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        do {
            guard try await actions.lists.update(profile: profile, id: id, name: body.name, description: body.description),
                let list = try await actions.lists.list(profile: profile, id: id)
            else { return .notFound(Self.listNotFound) }
            return .ok(.init(body: .json(.init(list))))
        } catch let error as CustomListError {
            if error.isStorage { return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message)))) }
            return .unprocessableContent(Self.refused(error))
        }
    }

    func deleteCustomList(_ input: Operations.DeleteCustomList.Input) async throws -> Operations.DeleteCustomList.Output {
        guard let profile = APIScope.session?.existing, let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        do {
            return try await actions.lists.delete(profile: profile, id: id) ? .noContent(.init()) : .notFound(Self.listNotFound)
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
        }
    }

    func putCustomListItem(_ input: Operations.PutCustomListItem.Input) async throws -> Operations.PutCustomListItem.Output {
        guard let titleID = Int(exactly: input.path.titleId), titleID > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("titleId must be a positive id."))))
        }
        guard let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        let kind: MediaKind = input.path.kind == .show ? .show : .movie
        var position: Int?
        var note: String?? = nil
        if case .json(let change)? = input.body {
            // The schema's bounds: a position of -5 was clamped to 1 and answered as if it were fine.
            if let given = change.position, !(1...CustomListError.itemLimit).contains(given) {
                return .badRequest(.init(body: .applicationProblemJson(.badRequest("position must be from 1 to \(CustomListError.itemLimit)."))))
            }
            position = change.position
            // An empty note clears it (checked to nil); left out or null, it stays.
            if let given = change.note { note = .some(given) }
        }
        switch await actions.addToList(id, kind: kind, id: titleID, position: position, note: note, profile: APIScope.session?.existing) {
        case .done(.added(let item)): return .created(.init(body: .json(.init(item))))
        case .done(.kept(let item)): return .ok(.init(body: .json(.init(item))))
        case .done(.noList), .done(.notInList): return .notFound(Self.listNotFound)
        case .invalid(let message): return .unprocessableContent(.init(body: .applicationProblemJson(.init(status: 422, detail: message))))
        case .titleNotFound:
            return .notFound(.init(body: .applicationProblemJson(.notFound(LibraryOutcome.titleNotFoundText(kind, titleID)))))
        case .storageFailed: return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(ErrorTexts.saveFailed))))
        }
    }

    func deleteCustomListItem(_ input: Operations.DeleteCustomListItem.Input) async throws -> Operations.DeleteCustomListItem.Output {
        guard let profile = APIScope.session?.existing, let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        let kind: MediaKind = input.path.kind == .show ? .show : .movie
        do {
            return try await actions.lists.remove(profile: profile, id: id, kind: kind, itemID: String(input.path.titleId))
                ? .noContent(.init()) : .notFound(Self.listNotFound)
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
        }
    }

    func shareCustomList(_ input: Operations.ShareCustomList.Input) async throws -> Operations.ShareCustomList.Output {
        guard let profile = APIScope.session?.existing, let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        do {
            guard try await actions.lists.share(profile: profile, id: id) != nil, let list = try await actions.lists.list(profile: profile, id: id)
            else { return .notFound(Self.listNotFound) }
            return .ok(.init(body: .json(.init(list))))
        } catch let error as CustomListError {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
        }
    }

    func unshareCustomList(_ input: Operations.UnshareCustomList.Input) async throws -> Operations.UnshareCustomList.Output {
        guard let profile = APIScope.session?.existing, let id = UUID(uuidString: input.path.listId) else { return .notFound(Self.listNotFound) }
        do {
            return try await actions.lists.unshare(profile: profile, id: id) ? .noContent(.init()) : .notFound(Self.listNotFound)
        } catch {
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable(error.message))))
        }
    }

    func getSharedList(_ input: Operations.GetSharedList.Input) async throws -> Operations.GetSharedList.Output {
        let page = input.query.page ?? 1
        guard (1...100_000).contains(page) else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("page must be between 1 and 100000."))))
        }
        guard let found = try await actions.lists.sharedPage(token: input.path.token, page: page) else {
            return .notFound(.init(body: .applicationProblemJson(.notFound(CustomListError.sharedNotFoundMessage))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        name: found.list.name, description: found.list.description, itemCount: found.list.itemCount, page: found.page,
                        pageSize: CustomListPage.pageSize, items: found.items.map(Components.Schemas.CustomListItem.init)))))
    }

    static var listNotFound: ListNotFound { .init(body: .applicationProblemJson(.notFound(CustomListError.notFoundMessage))) }

    static func refused(_ error: CustomListError) -> ListRefused {
        .init(body: .applicationProblemJson(.init(status: 422, detail: error.message)))
    }
}

extension Components.Schemas.CustomList {
    init(_ list: CustomList) {
        self.init(
            id: list.id.uuidString.lowercased(), name: list.name, description: list.description, itemCount: list.itemCount, shared: list.isShared,
            shareUrl: list.shareToken.map { Route.sharedListPage($0) }, shareToken: list.shareToken, createdAt: list.createdAt,
            updatedAt: list.updatedAt)
    }
}

extension Components.Schemas.CustomListItem {
    init(_ item: CustomListItem) {
        self.init(
            kind: item.kind == .show ? .show : .movie, titleId: Int64(item.itemID) ?? 0, title: item.title, year: item.year,
            position: item.position, note: item.note, addedAt: item.addedAt)
    }
}
