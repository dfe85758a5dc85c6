/// What the page renderer and the API need to know of the request being answered, without every
/// handler passing it along (the pages add their form token in an extension).
enum RequestScope {
    /// A GET whose client accepts gzip (set by `CompressionMiddleware`).
    @TaskLocal static var acceptsGzip = false
    /// The signed-in account's name, nil for a visitor (set by the visitor middleware): the header
    /// says who is signed in.
    @TaskLocal static var signedInAs: String?
}
