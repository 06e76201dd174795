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
        lhs.line == rhs.line && lhs.withFileUTF8 { left in rhs.withFileUTF8 { left.elementsEqual($0) } }
    }

    /// Hashes the file and the line.
    public func hash(into hasher: inout Hasher) {
        withFileUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(line)
    }

    /// Orders locations by file, then by line.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        let files = lhs.withFileUTF8 { left in rhs.withFileUTF8 { left.lexicographicallyPrecedes($0) } }
        if files { return true }
        return lhs.line < rhs.line && lhs.withFileUTF8 { left in rhs.withFileUTF8 { left.elementsEqual($0) } }
    }

    /// Calls `body` with the file's name as UTF-8, without making a `String` of a literal.
    /// (Comparing by UTF-8 agrees with `String` for the ASCII of `#fileID`.)
    func withFileUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch file {
        case .literal(let literal):
            return literal.withUTF8Buffer(body)
        case .text(let text):
            var text = text
            return text.withUTF8(body)
        }
    }
}
