import ActorFSMDurability

/// Which of a store's schemas a command line names: by `--schema NAME`, and by `--fingerprint`
/// only where two versions of a schema share its name.
enum SchemaChoice {
    /// The schemas `name` and `fingerprint` leave of `schemas`: all of them when neither is given.
    ///
    /// - Throws: ``CommandFailure`` naming what the store holds, when `name` or `fingerprint`
    ///   names none of its schemas.
    static func chosen(name: String?, fingerprint: String?, among schemas: [StoredSchema]) throws -> [StoredSchema] {
        var chosen = schemas
        if let name {
            chosen = chosen.filter { $0.description.name == name }
            if chosen.isEmpty {
                let names = Set(schemas.map(\.description.name)).sorted()
                throw CommandFailure("the store describes no schema named \(name)"
                                     + (names.isEmpty ? "" : "; it describes " + listed(names, joinedBy: "and")))
            }
        }
        if let fingerprint {
            chosen = chosen.filter { $0.fingerprint == fingerprint }
            if chosen.isEmpty {
                throw CommandFailure("the store describes no schema\(name.map { " \($0)" } ?? "") with fingerprint \(fingerprint)")
            }
        }
        return chosen
    }

    /// The one schema `name` and `fingerprint` leave of `schemas`.
    ///
    /// - Throws: ``CommandFailure`` when none is left, or several: it says which option tells
    ///   them apart, `--schema` or, for versions of one name, `--fingerprint`.
    static func one(name: String?, fingerprint: String?, among schemas: [StoredSchema]) throws -> StoredSchema {
        let chosen = try chosen(name: name, fingerprint: fingerprint, among: schemas)
        guard let first = chosen.first else { throw CommandFailure("the store describes no schema") }
        guard chosen.count > 1 else { return first }
        let names = Set(chosen.map(\.description.name)).sorted()
        if names.count == 1 {
            let versions = chosen.map { "\($0.fingerprint) (v\($0.schemaVersion))" }
            throw CommandFailure("the store holds \(chosen.count) versions of \(first.description.name): choose one with "
                                 + "--fingerprint " + listed(versions, joinedBy: "or"))
        }
        throw CommandFailure("the store holds \(names.count) schemas: choose one with --schema " + listed(names, joinedBy: "or"))
    }

    /// The fingerprint a filter of machines takes: the one schema `name` names (with
    /// `fingerprint` where two versions share the name), or `fingerprint` alone.
    static func fingerprint(name: String?, fingerprint: String?, among schemas: () async throws -> [StoredSchema]) async throws -> String? {
        guard let name else { return fingerprint }
        return try one(name: name, fingerprint: fingerprint, among: try await schemas()).fingerprint
    }

    /// `a`, `a and b`, `a, b and c`.
    private static func listed(_ items: [String], joinedBy word: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(word) " + items.last!
    }
}
