/// An invariant that failed during a run of ``GeneratedPaths``: the path, the step after which it
/// was checked, and its error.
public struct PathFailure: Error, CustomStringConvertible {
    /// The path, as ``GeneratedPath`` prints it.
    public let path: String
    /// The step after which the invariant threw, from 1.
    public let step: Int
    /// What the invariant threw.
    public let error: any Error

    /// `path #2: locked --coin--> unlocked, after step 1: …`.
    public var description: String { "path \(path), after step \(step): \(error)" }
}
