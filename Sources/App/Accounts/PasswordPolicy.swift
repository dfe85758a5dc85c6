import Foundation

/// What a new password must be (OWASP ASVS 2.1): 12 to 128 characters, any but control characters, not one of
/// the 100 most common passwords (nor one with digits or symbols added, nor one character repeated),
/// and not the username.
enum PasswordPolicy {
    static let minimum = 12
    static let maximum = 128

    static let common: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt", subdirectory: "Resources/security"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") })
    }()

    /// Nil when acceptable, else what to change, in words for the form.
    static func problem(_ password: String, username: String) -> String? {
        if password.count < minimum { return "Use at least \(minimum) characters for your password (longer is better; spaces are fine)." }
        if TextRules.length(password) > maximum { return "Passwords have at most \(maximum) characters." }
        // Control characters (NUL, tab, line breaks, escapes…) cannot be typed the same way
        // everywhere, and older bcrypt code stops at NUL.
        if password.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "Passwords cannot contain control characters (such as tabs, line breaks or NUL). Use letters, digits, spaces and symbols."
        }
        let lowered = password.lowercased()
        let core = String(lowered.reversed().drop { !$0.isLetter }.reversed())
        if common.contains(lowered) || (core.count >= 4 && common.contains(core)) || Set(password).count == 1 {
            return "That password is one of the most common ones, which are tried first. Choose another."
        }
        if lowered.contains(username.lowercased()) && !username.isEmpty {
            return "Your password must not contain your username."
        }
        return nil
    }
}
