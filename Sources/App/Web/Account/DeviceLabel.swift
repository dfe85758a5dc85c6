/// A few words naming a browser from its User-Agent ("Firefox on Linux"), for the account page's
/// list of sessions. Only the label is stored (`AccountService.Client.device`), never the header.
enum DeviceLabel {
    static let maximumLength = 60
    static let unknown = "Unknown browser"

    static func from(userAgent raw: String?) -> String {
        guard let raw, !raw.isEmpty else { return unknown }
        let agent = raw.prefix(512).lowercased()
        // Order matters: Edge and Opera say "Chrome", Chrome says "Safari", Android says "Linux".
        let browsers: [(String, String)] = [
            ("edg/", "Edge"), ("opr/", "Opera"), ("firefox/", "Firefox"), ("fxios/", "Firefox"), ("crios/", "Chrome"),
            ("chrome/", "Chrome"), ("safari/", "Safari"), ("curl/", "curl"), ("python", "Python script"), ("okhttp", "App"),
        ]
        let systems: [(String, String)] = [
            ("iphone", "iPhone"), ("ipad", "iPad"), ("android", "Android"), ("windows", "Windows"), ("mac os x", "macOS"),
            ("macintosh", "macOS"), ("cros", "ChromeOS"), ("linux", "Linux"),
        ]
        let browser = browsers.first { agent.contains($0.0) }?.1
        let system = systems.first { agent.contains($0.0) }?.1
        let label: String =
            switch (browser, system) {
            case (let browser?, let system?): "\(browser) on \(system)"
            case (let browser?, nil): browser
            case (nil, let system?): "Browser on \(system)"
            case (nil, nil): unknown
            }
        return String(label.prefix(maximumLength))
    }
}
