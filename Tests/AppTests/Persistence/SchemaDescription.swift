import Foundation
import SQLKit

@testable import App

/// The migrated schema as sorted, stable text: tables (by name) with their columns (in table
/// order: type, nullability, default, primary key), indexes, unique and foreign keys, then the
/// migrations Fluent recorded as applied.
enum SchemaDescription {
    static func of(_ database: AppDatabase) async throws -> String {
        let sql = try database.sql
        var text = database.isPostgres ? try await postgres(sql) : try await sqlite(sql)
        let applied = try await sql.raw("SELECT name FROM _fluent_migrations").all()
            .map { try $0.decode(column: "name", as: String.self) }.sorted()
        text += "migrations applied\n" + applied.map { "  \($0)\n" }.joined()
        return text
    }

    private static func strings(_ sql: any SQLDatabase, _ query: SQLQueryString, _ column: String) async throws -> [String] {
        try await sql.raw(query).all().map { try $0.decode(column: column, as: String.self) }
    }

    // MARK: SQLite: sqlite_master and the table pragmas

    static func sqlite(_ sql: any SQLDatabase) async throws -> String {
        var text = ""
        let tables = try await strings(
            sql, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", "name"
        )
        for table in tables {
            text += "table \(table)\n"
            for column in try await sql.raw("PRAGMA table_info(\(ident: table))").all() {
                let name = try column.decode(column: "name", as: String.self)
                let type = try column.decode(column: "type", as: String.self)
                let notNull = try column.decode(column: "notnull", as: Int.self) != 0
                let defaultValue = try column.decode(column: "dflt_value", as: String?.self)
                let key = try column.decode(column: "pk", as: Int.self)
                text +=
                    "  column \(name) \(type) \(notNull ? "not null" : "null")"
                    + (defaultValue.map { " default \($0)" } ?? "") + (key > 0 ? " primary key \(key)" : "") + "\n"
            }
            var lines: [String] = []
            for index in try await sql.raw("PRAGMA index_list(\(ident: table))").all() {
                let name = try index.decode(column: "name", as: String.self)
                let unique = try index.decode(column: "unique", as: Int.self) != 0
                let origin = try index.decode(column: "origin", as: String.self)
                let columns = try await sql.raw("PRAGMA index_info(\(ident: name))").all()
                    .sorted { try $0.decode(column: "seqno", as: Int.self) < $1.decode(column: "seqno", as: Int.self) }
                    .map { try $0.decode(column: "name", as: String?.self) ?? "(expression)" }
                let kind = ["c": "index", "u": "unique constraint", "pk": "primary key index"][origin] ?? origin
                lines.append("  \(kind) \(name)\(unique ? " unique" : "") (\(columns.joined(separator: ", ")))")
            }
            var keys: [Int: [(from: String, to: String, target: String, onUpdate: String, onDelete: String)]] = [:]
            for key in try await sql.raw("PRAGMA foreign_key_list(\(ident: table))").all() {
                keys[try key.decode(column: "id", as: Int.self), default: []].append(
                    (
                        try key.decode(column: "from", as: String.self), try key.decode(column: "to", as: String?.self) ?? "(primary key)",
                        try key.decode(column: "table", as: String.self), try key.decode(column: "on_update", as: String.self),
                        try key.decode(column: "on_delete", as: String.self)
                    ))
            }
            for parts in keys.values {
                let first = parts[0]
                lines.append(
                    "  foreign key (\(parts.map(\.from).joined(separator: ", "))) references \(first.target)"
                        + "(\(parts.map(\.to).joined(separator: ", "))) on update \(first.onUpdate) on delete \(first.onDelete)")
            }
            text += lines.sorted().map { $0 + "\n" }.joined()
        }
        for trigger in try await sql.raw("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() {
            text += "trigger \(try trigger.decode(column: "name", as: String.self)) on \(try trigger.decode(column: "tbl_name", as: String.self))\n"
        }
        return text
    }

    // MARK: PostgreSQL: information_schema and the catalogs, for the connection's own schema

    static func postgres(_ sql: any SQLDatabase) async throws -> String {
        let schema = try await strings(sql, "SELECT current_schema()::text AS name", "name")[0]
        var text = ""
        let tables = try await strings(
            sql,
            """
            SELECT table_name::text AS name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """, "name")
        for table in tables {
            text += "table \(table)\n"
            let columns = try await sql.raw(
                """
                SELECT column_name::text AS name, data_type::text AS type, is_nullable::text AS nullable,
                       column_default::text AS default_value, is_identity::text AS identity, identity_generation::text AS generation
                FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(bind: table) ORDER BY ordinal_position
                """
            ).all()
            for column in columns {
                let nullable = try column.decode(column: "nullable", as: String.self) == "YES"
                let defaultValue = try column.decode(column: "default_value", as: String?.self)
                let identity = try column.decode(column: "identity", as: String.self) == "YES"
                let generation = try column.decode(column: "generation", as: String?.self)
                text +=
                    "  column \(try column.decode(column: "name", as: String.self)) \(try column.decode(column: "type", as: String.self))"
                    + " \(nullable ? "null" : "not null")" + (defaultValue.map { " default \($0)" } ?? "")
                    + (identity ? " identity \(generation ?? "")" : "") + "\n"
            }
            var lines: [String] = []
            // NOT NULL is in the columns above (PostgreSQL 18 also lists it as a constraint).
            let constraints = try await sql.raw(
                """
                SELECT c.conname::text AS name, c.contype::text AS kind, pg_get_constraintdef(c.oid) AS definition
                FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                WHERE c.connamespace = current_schema()::regnamespace AND t.relname = \(bind: table) AND c.contype <> 'n'
                """
            ).all()
            for constraint in constraints {
                let kind = try constraint.decode(column: "kind", as: String.self)
                let label = ["p": "primary key", "u": "unique constraint", "f": "foreign key", "c": "check"][kind] ?? kind
                lines.append(
                    "  \(label) \(try constraint.decode(column: "name", as: String.self)): "
                        + (try constraint.decode(column: "definition", as: String.self)))
            }
            let indexes = try await sql.raw(
                """
                SELECT indexname::text AS name, indexdef::text AS definition FROM pg_indexes
                WHERE schemaname = current_schema() AND tablename = \(bind: table)
                """
            ).all()
            for index in indexes {
                lines.append(
                    "  index \(try index.decode(column: "name", as: String.self)): \(try index.decode(column: "definition", as: String.self))")
            }
            text += lines.sorted().map { $0 + "\n" }.joined()
        }
        let triggers = try await sql.raw(
            """
            SELECT trigger_name::text AS name, event_object_table::text AS on_table,
                   string_agg(event_manipulation::text, ', ' ORDER BY event_manipulation) AS events, action_statement::text AS action
            FROM information_schema.triggers WHERE trigger_schema = current_schema()
            GROUP BY trigger_name, event_object_table, action_statement ORDER BY trigger_name
            """
        ).all()
        for trigger in triggers {
            text +=
                "trigger \(try trigger.decode(column: "name", as: String.self)) on \(try trigger.decode(column: "on_table", as: String.self))"
                + " (\(try trigger.decode(column: "events", as: String.self))): \(try trigger.decode(column: "action", as: String.self))\n"
        }
        // Each test has its own schema: its name is not part of the description.
        return text.replacingOccurrences(of: "\(schema).", with: "").replacingOccurrences(of: schema, with: "<schema>")
    }
}
