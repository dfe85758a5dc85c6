import Foundation
import HTTPTypes
import PopcornAPI

/// The API's paths and their methods, read from `openapi.yaml` itself, so a method the document
/// does not list for a path is a 405 with `Allow` (RFC 9110) rather than a 404, and the table can
/// never drift from the document.
struct APIRoutes: Sendable {
    struct Route: Sendable {
        /// The path as the document writes it (`/api/v1/movies/{id}`).
        let path: String
        /// Path segments; nil stands for a `{parameter}`.
        let segments: [String?]
        let methods: [HTTPRequest.Method]
        /// The methods whose operation the document tags `admin`.
        let adminMethods: [HTTPRequest.Method]
        /// The methods whose operation the document tags `shops`: signed over the body's exact bytes.
        var signedMethods: [HTTPRequest.Method] = []
    }

    let routes: [Route]

    static func load() throws -> APIRoutes {
        guard let url = APISpec.documentURL else { return APIRoutes(document: "") }
        return APIRoutes(document: try String(contentsOf: url, encoding: .utf8))
    }

    /// Reads the `paths:` block: a path is a 2-space-indented key, its methods 4-space keys.
    init(document: String) {
        var routes: [Route] = []
        var path: String?
        var methods: [HTTPRequest.Method] = []
        var adminMethods: [HTTPRequest.Method] = []
        var signedMethods: [HTTPRequest.Method] = []
        func flush() {
            if let path {
                routes.append(
                    Route(path: path, segments: Self.segments(path), methods: methods, adminMethods: adminMethods, signedMethods: signedMethods))
            }
        }
        var inPaths = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty {
                if inPaths {
                    flush()
                    path = nil
                }
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                flush()
                path = String(line.dropFirst(2).dropLast())
                methods = []
                adminMethods = []
                signedMethods = []
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"),
                let method = HTTPRequest.Method(line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()),
                ["GET", "PUT", "POST", "DELETE", "PATCH"].contains(method.rawValue)
            {
                methods.append(method)
            } else if line.hasPrefix("      tags:"), let method = methods.last {
                if line.contains("admin") { adminMethods.append(method) }
                if line.contains("shops") { signedMethods.append(method) }
            }
        }
        if inPaths { flush() }
        self.routes = routes
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
