/// The file and line of a statement in a schema definition.
///
/// Every DSL call records where it was written, so that a ``SchemaError`` can point at the
/// user's code rather than at the library.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Where the file's name is kept. The DSL's locations keep the `#fileID` literal itself, so
    /// copying one (every record carries its transition's location, to every subscriber) costs
    /// no reference counting, which threads would contend for on one shared string.
    enum File: Sendable {
        case literal(StaticString)
        case text(String)
    }

    let file: File
    /// The line in that file.
    public let line: UInt

    /// Creates a location from a file identifier and a line.
    public init(fileID: String, line: UInt) {
        file = .text(fileID)
        self.line = line
    }

    init(_ fileID: StaticString, _ line: UInt) {
        file = .literal(fileID)
        self.line = line
    }

    /// The file, as `Module/File.swift` (the value of `#fileID`).
    public var fileID: String {
        switch file {
        case .literal(let literal): literal.description
        case .text(let text): text
        }
    }

    /// `Module/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }

    /// Whether both name the same line of the same file.
    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && lhs.fileID == rhs.fileID
    }

    /// Hashes the file and the line.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
    }

    /// Orders locations by file, then by line.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line)
    }
}
