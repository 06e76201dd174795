/// The file and line of a statement in a schema definition.
///
/// Every DSL call records where it was written, so that a ``SchemaError`` can point at the
/// user's code rather than at the library.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, as `Module/File.swift` (the value of `#fileID`).
    public let fileID: String
    /// The line in that file.
    public let line: UInt

    /// Creates a location from a file identifier and a line.
    public init(fileID: String, line: UInt) {
        self.fileID = fileID
        self.line = line
    }

    init(_ fileID: StaticString, _ line: UInt) {
        self.init(fileID: "\(fileID)", line: line)
    }

    /// `Module/File.swift:12`.
    public var description: String { "\(fileID):\(line)" }

    /// Orders locations by file, then by line.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.fileID, lhs.line) < (rhs.fileID, rhs.line)
    }
}
