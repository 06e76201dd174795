import Foundation

/// A folder of its own for a test's store files, removed at the end.
package final class TemporaryFolder {
    /// The folder's path.
    package let path: String

    /// Makes a new, empty folder in the system's temporary folder.
    package init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("actorfsm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    /// The path of the file `name` in the folder.
    package func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
