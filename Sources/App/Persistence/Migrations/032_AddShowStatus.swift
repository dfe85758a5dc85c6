import FluentKit

/// `tv_episode_lists.show_status`: TVMaze's status of the show the list is of (`Ended`,
/// `Running`, …) as the same answer gave it, so a show a person has seen all of counts as finished
/// (statistics) without asking for the show. Null for lists stored before, until they are fetched again.
struct AddShowStatus: AsyncMigration {
    var name: String { "App.AddShowStatus" }

    func prepare(on database: any Database) async throws {
        try await database.schema("tv_episode_lists").field("show_status", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("tv_episode_lists").deleteField("show_status").update()
    }
}
