import Foundation

/// The OpenAPI document the server implements, shipped as a resource so `/api/openapi.yaml` serves the very file the code was generated from.
public enum APISpec {
    public static var documentURL: URL? { Bundle.module.url(forResource: "openapi", withExtension: "yaml") }
}
