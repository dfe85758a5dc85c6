import Foundation
import Hummingbird

struct CredentialsPage: Page {
    static let template = "account/credentials"

    enum Mode { case signUp, signIn }

    let chrome: Chrome
    let isSignUp: Bool
    let heading: String
    let action: String
    let submitLabel: String
    let otherURL: String
    let otherLabel: String
    let next: String
    let username: String
    /// "Remember me" stays ticked when the form comes back with an error.
    let remember: Bool
    let errors: [String: String]
    /// The fields' problems at the top (the form's own, such as wrong credentials, is an alert of its own).
    let errorSummary: ErrorSummary?
    /// What just happened, on the sign-in form after signing out or deleting the account.
    let notice: String?
    let minimum = PasswordPolicy.minimum
    let maximum = PasswordPolicy.maximum
    let rememberedDays = Int(SessionService.rememberedLifetime / 86_400)
    let browserHours = Int(SessionService.browserLifetime / 3600)

    init(mode: Mode, next: String, username: String, remember: Bool = false, errors: [String: String], notice: String? = nil) {
        isSignUp = mode == .signUp
        heading = isSignUp ? "Create your account" : "Sign in"
        chrome = Chrome(heading, tab: .account)
        action = isSignUp ? Route.signUp.path : Route.signIn.path
        submitLabel = isSignUp ? "Create account" : "Sign in"
        otherURL = (isSignUp ? Route.signIn.path : Route.signUp.path) + "?next=\(Route.query(next))"
        otherLabel = isSignUp ? "Already have an account? Sign in" : "New here? Create an account"
        self.next = next
        self.username = username
        self.remember = remember
        self.errors = errors
        errorSummary = ErrorSummary(errors.filter { $0.key != "form" }, keys: ["username", "password"], idPrefix: "account-")
        self.notice = notice
    }

    /// The sign-in form's message for `?done=`: signing out and deleting the account land there.
    static func notice(_ done: Substring?) -> String? {
        switch done {
        case "signed-out": "You are signed out. Your lists stay in your account: sign in to see them on this device again."
        case "deleted": "Your account was deleted, with its lists, notes and searches."
        default: nil
        }
    }
}

struct AccountPage: Page {
    static let template = "account/account"

    struct NewToken {
        let name: String
        let token: String
    }

    struct SessionRow {
        let device: String
        let created: Moment
        let lastSeen: Moment
        let remembered: Bool
        let isCurrent: Bool
        let endURL: String
    }

    struct TokenRow {
        let name: String
        let hint: String
        let created: String
        let lastUsed: String
        let revokeURL: String
    }

    let chrome = Chrome("Your account", tab: .account)
    let username: String
    let isAdmin: Bool
    let sessions: [SessionRow]
    let hasOtherSessions: Bool
    let tokens: [TokenRow]
    let hasTokens: Bool
    let newToken: NewToken?
    let calendar: CalendarSettings
    let notice: String?
    let errors: [String: String]
    let errorSummary: ErrorSummary?
    let minimum = PasswordPolicy.minimum
    let maximum = PasswordPolicy.maximum
    let signOutURL = Route.signOut.path
    let passwordURL = Route.changePassword.path
    let deleteURL = Route.deleteAccount.path
    let exportLinks = ExportLinks()
    let tokensURL = Route.createToken.path
    let endOthersURL = Route.endOtherSessions.path
    let adminURL = AdminRoute.offers.path
    let apiDocsURL = APIRoute.document.path

    init(
        account: AccountService.Account, sessions: [SessionService.Active], tokens: [APITokenService.Token], newToken: NewToken?,
        calendar: CalendarSettings = CalendarSettings(feedSince: nil, newFeedURL: nil, zone: nil), notice: String?, errors: [String: String]
    ) {
        self.calendar = calendar
        username = account.username
        isAdmin = account.isAdmin
        self.sessions = sessions.map {
            SessionRow(
                device: $0.device ?? DeviceLabel.unknown, created: Moment($0.createdAt), lastSeen: Moment($0.lastSeenAt),
                remembered: $0.remember, isCurrent: $0.isCurrent, endURL: Route.endSessionLink($0.handle)
            )
        }
        hasOtherSessions = sessions.contains { !$0.isCurrent }
        self.tokens = tokens.map {
            TokenRow(
                name: $0.name, hint: $0.hint, created: UTCFormatters.longDay.string(from: $0.createdAt),
                lastUsed: $0.lastUsedAt.map(UTCFormatters.longDay.string) ?? "Never", revokeURL: Route.revokeTokenLink($0.id)
            )
        }
        hasTokens = !tokens.isEmpty
        self.newToken = newToken
        self.notice = notice
        self.errors = errors
        errorSummary = ErrorSummary(
            errors,
            fields: [
                ("time_zone", "time-zone"), ("current", "current-password"), ("password", "new-password"), ("name", "token-name"),
                ("token_password", "token-password"),
            ])
    }
}

extension AccountPage {
    /// The Calendar section: the feed (on since when, its address once when just made) and the time zone.
    struct CalendarSettings {
        struct Zone {
            let name: String
            let selected: Bool
        }

        let hasFeed: Bool
        let feedSince: String?
        let newFeedURL: String?
        let zoneName: String?
        let zones: [Zone]
        let renewURL = Route.renewCalendarFeed.path
        let revokeURL = Route.revokeCalendarFeed.path
        let zoneURL = Route.saveTimeZone.path
        let calendarURL = Route.calendar.path
        let notificationsURL = Route.notifications.path
        let integrationsURL = Route.integrations.path

        init(feedSince: Date?, newFeedURL: String?, zone: TimeZone?) {
            hasFeed = feedSince != nil
            self.feedSince = feedSince.map(UTCFormatters.longDay.string)
            self.newFeedURL = newFeedURL
            zoneName = zone?.identifier
            zones = Self.names.map { Zone(name: $0, selected: $0 == zone?.identifier) }
        }

        /// Every zone a person can pick, A to Z.
        static let names: [String] = (TimeZone.knownTimeZoneIdentifiers.filter { $0.contains("/") } + ["UTC"]).sorted()
    }
}

struct DeleteAccountPage: Page {
    static let template = "account/delete"

    let chrome = Chrome("Delete your account", tab: .account)
    let username: String
    let error: String?
    let action = Route.deleteAccount.path
    let cancelURL = Route.account.path
}
