import App
import ArgumentParser
import Foundation
import Logging

@main
struct PopcornSwirlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "popcornswirl",
        abstract: "PopcornSwirl: movies by release year, favorites, watched list and notes.",
        subcommands: [Serve.self, Migrate.self, CreateAdmin.self, CreateToken.self, Import.self, Export.self],
        defaultSubcommand: Serve.self
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the web server (the default). Settings come from the environment; see README.")

    func run() async throws {
        // Off the main actor: the entry point is main-actor isolated, and work inherited from it
        // would funnel through the main thread.
        // Every line of every library goes through the redaction of secrets, and one written while
        // a request is answered carries its id.
        let json = (try? AppConfig.fromEnvironment())?.operations.logFormat == .json
        LoggingSystem.bootstrap(
            { label, provider in
                RedactingLogHandler(
                    json
                        ? JSONLogHandler(label: label, metadataProvider: provider)
                        : StreamLogHandler.standardError(label: label, metadataProvider: provider))
            }, metadataProvider: RequestTrace.metadataProvider)
        try await Task.detached { try await Self.serve() }.value
    }

    static func serve() async throws {
        let config = try AppConfig.fromEnvironment()
        var logger = Logger(label: "popcornswirl")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let database = try await AppDatabase.open(config.storage, logger: logger)
        let http = AsyncHTTPUpstream()
        let services = try AppServices(config: config, database: database, http: http, logger: logger)
        if ProcessInfo.processInfo.environment["ADMIN_TOKEN"] != nil {
            logger.warning("ADMIN_TOKEN is no longer used: the console and admin API are for admin accounts (popcornswirl create-admin)")
        }
        logger.info("PopcornSwirl on http://\(config.host):\(config.port) (\(config.offline ? "offline mode" : "iTunes at \(config.itunesBaseURL)"))")
        if let port = config.operations.metricsPort { logger.info("metrics on http://\(config.operations.metricsHost):\(port)/metrics") }
        try await App.serve(services: services, onShutdown: [{ await http.shutdown() }, { await database.shutdown() }])
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
        abstract:
            "Create an admin account (or make an existing account admin). The password is read from standard input, never from the command line."
    )

    @Option(help: "The admin's username (3 to 32 letters, digits, dots, dashes or underscores).")
    var username: String

    func run() async throws {
        print("Password (at least 12 characters), then Enter:")
        guard let password = readLine(strippingNewline: true), !password.isEmpty else {
            throw ValidationError("No password was given on standard input.")
        }
        let account = try await withServices { try await $0.accounts.createAdmin(username: username, password: password) }
        print("admin account “\(account.username)” is ready")
    }
}

struct CreateToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-token",
        abstract: "Make a personal API token for an existing account and print it (shown this once; revoke it on the account page)."
    )

    @Option(help: "The account's username.")
    var username: String

    @Option(help: "What the token is for, as listed on the account page.")
    var name: String = "command line"

    func run() async throws {
        let (username, name) = (username, name)
        let token = try await withServices { try await $0.createToken(username: username, name: name) }
        print(token)
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an account's data: the full JSON backup (the default) or the films and diary as a CSV Letterboxd imports."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case backup, letterboxd
    }

    @Option(help: "The account's username.")
    var username: String

    @Option(help: "backup (JSON, restored exactly by the importer) or letterboxd (CSV).")
    var format: Format = .backup

    @Option(help: "The file to write (standard output when left out). An existing file is replaced.")
    var output: String?

    func run() async throws {
        let (username, letterboxd) = (username, format == .letterboxd)
        let data = try await withServices { try await $0.export(username: username, letterboxd: letterboxd) }
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        // One person's data: readable by its owner only.
        try? FileManager.default.removeItem(atPath: output)
        guard FileManager.default.createFile(atPath: output, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("Could not write \(output).")
        }
        print("wrote \(data.count) bytes to \(output)")
    }
}

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import another tracker's export (Letterboxd, Trakt, TV Time, Simkl, IMDb) or a PopcornSwirl backup into an account, and wait for it to finish. Rows that need a match wait on the import page."
    )

    @Option(help: "The account's username.")
    var username: String

    @Argument(help: "The export: a ZIP, CSV or JSON file, or several files of one export (TV Time's CSVs), or the folder that holds them.")
    var files: [String]

    func run() async throws {
        var read: [(name: String, data: Data)] = []
        var total = 0
        for path in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw ValidationError("There is no file \(path).") }
            let urls =
                isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
                    .filter { [".csv", ".json"].contains(where: $0.lowercased().hasSuffix) }.map {
                        URL(fileURLWithPath: path).appendingPathComponent($0)
                    }
                : [URL(fileURLWithPath: path)]
            for url in urls {
                total += (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
                guard total <= ImportReader.totalLimit else {
                    throw ValidationError("The files add up to more than \(ImportReader.totalLimit >> 20) MiB.")
                }
                guard let data = FileManager.default.contents(atPath: url.path) else { throw ValidationError("Could not read \(url.path).") }
                read.append((url.lastPathComponent, data))
            }
        }
        guard !read.isEmpty else { throw ValidationError("No CSV or JSON file is in \(files.joined(separator: ", ")).") }
        let (username, chosen) = (username, read)
        let job = try await withServices { services in
            try await services.importFile(username: username, files: chosen) { job in
                let estimate = ImportJob.estimateText(job.secondsLeft(at: Date())).map { ", \($0)" } ?? ""
                print("\(job.percent) % (\(job.processed) of \(job.total) rows)\(estimate)\(job.message.map { ": \($0)" } ?? "")")
            }
        }
        print(
            "\(job.state.rawValue): \(job.landed) imported, \(job.queued) need a match, \(job.failed) failed, \(job.skipped) already there or kept."
        )
    }
}

/// Runs `body` over the configured database (migrated), then closes everything; errors become
/// the command's readable failure.
func withServices<T: Sendable>(_ body: @Sendable (AppServices) async throws -> T) async throws -> T {
    let config = try AppConfig.fromEnvironment()
    var logger = Logger(label: "popcornswirl")
    logger.logLevel = .warning
    let database = try await AppDatabase.open(config.storage, logger: logger)
    let http = AsyncHTTPUpstream()
    let outcome: Result<T, any Error>
    do {
        outcome = .success(try await body(try AppServices(config: config, database: database, http: http, logger: logger)))
    } catch {
        outcome = .failure(error)
    }
    await http.shutdown()
    await database.shutdown()
    return try outcome.mapError { ValidationError(($0 as? ImportRefused)?.message ?? "\($0)") }.get()
}
