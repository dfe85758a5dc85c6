import App
import ArgumentParser
import Foundation
import Logging

@main
struct PopcornSwirlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popcornswirl",
        abstract: "PopcornSwirl: movies by release year, favourites, watched list and notes.",
        subcommands: [Serve.self, Migrate.self, CreateAdmin.self],
        defaultSubcommand: Serve.self
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web server (the default). Settings come from the environment; see README.")

    func run() async throws {
        // Off the main actor: the entry point is main-actor isolated, and work inherited from it
        // would funnel through the main thread.
        try await Task.detached { try await Self.serve() }.value
    }

    static func serve() async throws {
        let config = try AppConfig.fromEnvironment()
        var logger = Logger(label: "popcornswirl")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let database = try await AppDatabase.open(config.storage, logger: logger)
        let http = AsyncHTTPUpstream()
        let services = try AppServices(config: config, database: database, http: http, logger: logger)
        let app = try await buildApplication(services: services, onShutdown: [{ await http.shutdown() }, { await database.shutdown() }])
        logger.info("PopcornSwirl on http://\(config.host):\(config.port) (\(config.offline ? "offline mode" : "iTunes at \(config.itunesBaseURL)"))")
        try await app.runService()
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

    func run() async throws {
        let config = try AppConfig.fromEnvironment()
        let logger = Logger(label: "popcornswirl")
        let database = try await AppDatabase.open(config.storage, logger: logger)
        await database.shutdown()
        print("migrations applied")
    }
}

struct CreateAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-admin",
        abstract: "Create an admin account (or make an existing account admin). The password is read from standard input, never from the command line."
    )

    @Option(help: "The admin's username (3 to 32 letters, digits, dots, dashes or underscores).")
    var username: String

    func run() async throws {
        print("Password (at least 12 characters), then Enter:")
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw ValidationError("No password was given on standard input.")
        }
        let config = try AppConfig.fromEnvironment()
        var logger = Logger(label: "popcornswirl")
        logger.logLevel = .warning
        let database = try await AppDatabase.open(config.storage, logger: logger)
        let http = AsyncHTTPUpstream()
        let outcome: Result<AccountService.Account, any Error>
        do {
            let services = try AppServices(config: config, database: database, http: http, logger: logger)
            outcome = .success(try await services.accounts.createAdmin(username: username, password: password))
        } catch {
            outcome = .failure(error)
        }
        await http.shutdown()
        await database.shutdown()
        switch outcome {
        case .success(let account): print("admin account “\(account.username)” is ready")
        case .failure(let error): throw ValidationError("\(error)")
        }
    }
}
