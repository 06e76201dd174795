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

    @usableFromInline init(_ fileID: StaticString, _ line: UInt) {
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

    /// Whether both name the same line of the same file. File names compare by their UTF-8
    /// bytes, as `#fileID` values (ASCII paths) do.
    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.line == rhs.line && compareFiles(lhs, rhs) == 0
    }

    /// Hashes the file's UTF-8 bytes and the line.
    public func hash(into hasher: inout Hasher) {
        withFileUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(line)
    }

    /// Orders locations by file (by UTF-8 bytes), then by line.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        let files = compareFiles(lhs, rhs)
        return files < 0 || (files == 0 && lhs.line < rhs.line)
    }

    /// -1, 0 or 1 as `lhs`'s file name sorts before, with or after `rhs`'s, byte by byte.
    static func compareFiles(_ lhs: SourceLocation, _ rhs: SourceLocation) -> Int {
        lhs.withFileUTF8 { left in
            rhs.withFileUTF8 { right in
                for (a, b) in zip(left, right) where a != b { return a < b ? -1 : 1 }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
        }
    }

    /// Calls `body` with the file's name as UTF-8, without making a `String` of a literal.
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
