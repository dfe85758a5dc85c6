import Foundation
import HTTPTypes
import PopcornAPI
import Yams

/// The API's paths and their methods, read from `openapi.yaml` itself (with Yams), so a method the document
/// does not list for a path is a 405 with `Allow` (RFC 9110) rather than a 404, and the table can
/// never drift from the document.
struct APIRoutes: Sendable {
    struct Route: Sendable {
        /// The path as the document writes it (`/api/v1/movies/{id}`).
        let path: String
        /// Path segments; nil stands for a `{parameter}`.
        let segments: [String?]
        var methods: [HTTPRequest.Method]
        /// The methods whose operation the document tags `admin`.
        var adminMethods: [HTTPRequest.Method]
        /// The methods whose operation the document tags `shops`: signed over the body's exact bytes.
        var signedMethods: [HTTPRequest.Method] = []
    }

    let routes: [Route]

    /// The shipped document's table. It is read once: the document is a resource of the build, the
    /// same for every application the process builds (the tests build hundreds).
    static func load() throws -> APIRoutes { try shipped.get() }

    private static let shipped = Result {
        guard let url = APISpec.documentURL else { return try APIRoutes(document: "") }
        return try APIRoutes(document: try String(contentsOf: url, encoding: .utf8))
    }

    /// The operations the document names: a path object's `get`, `put`, `post`, `delete` and `patch`.
    static let operations = ["GET", "PUT", "POST", "DELETE", "PATCH"]

    /// Reads the `paths` object with Yams, in the document's order: each path, its operations and
    /// their `tags`.
    init(document: String) throws {
        let paths = try Yams.compose(yaml: document)?.mapping?["paths"]?.mapping
        routes = (paths ?? [:]).compactMap { key, item in
            guard let path = key.string, path.hasPrefix("/") else { return nil }
            var route = Route(path: path, segments: Self.segments(path), methods: [], adminMethods: [])
            for (key, operation) in item.mapping ?? [:] {
                guard let name = key.string?.uppercased(), Self.operations.contains(name), let method = HTTPRequest.Method(name) else { continue }
                route.methods.append(method)
                let tags = operation.mapping?["tags"]?.sequence?.compactMap(\.string) ?? []
                if tags.contains("admin") { route.adminMethods.append(method) }
                if tags.contains("shops") { route.signedMethods.append(method) }
            }
            return route
        }
    }

    /// The methods the document lists for a path (HEAD with GET), or nil for a path it does not have.
    func allowed(_ path: String) -> [HTTPRequest.Method]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard
            let route = routes.first(where: { route in
                route.segments.count == parts.count
                    && zip(route.segments, parts).allSatisfy { segment, part in segment.map { $0 == part } ?? !part.isEmpty }
            })
        else { return nil }
        return route.methods.contains(.get) ? route.methods + [.head] : route.methods
    }

    static func segments(_ path: String) -> [String?] {
        path.split(separator: "/").map { $0.hasPrefix("{") || $0.hasPrefix(":") ? nil : String($0) }
    }

    /// Whether the document tags the operation at this path (as the generated code registers it) `shops`.
    func isSigned(method: HTTPRequest.Method, path: String) -> Bool {
        let segments = Self.segments(path)
        return routes.contains { $0.segments == segments && $0.signedMethods.contains(method) }
    }

    /// Whether the document tags the operation at this path (as the generated code registers it) `admin`.
    func isAdmin(method: HTTPRequest.Method, path: String) -> Bool {
        let segments = Self.segments(path)
        return routes.contains { $0.segments == segments && $0.adminMethods.contains(method) }
    }
}
