import FluentKit
import Foundation
import HummingbirdTesting
import Testing

@testable import App

extension TestApp {
    /// `signedIn`, with a real password (hashed in the current form): for forms that ask for it again.
    func signedIn(_ username: String, password: String) async throws -> (profile: UUID, cookie: String) {
        let account = try await signedIn(username)
        let hash = PasswordHasher.hashNow(password)
        try await ProfileModel.query(on: services.database.db).filter(\.$id == account.profile).set(\.$passwordHash, to: hash).update()
        return account
    }

    /// The session token in a `ps_session=…` cookie header (the first cookie of it).
    static func token(_ cookie: String) -> String {
        String(cookie.prefix { $0 != ";" }.dropFirst(SessionService.cookieName.count + 1))
    }
}

extension TestResponse {
    /// The session cookie's whole Set-Cookie line.
    var sessionSetCookie: String? {
        headers[values: .setCookie].first { $0.hasPrefix(SessionService.cookieName + "=") }
    }
}
