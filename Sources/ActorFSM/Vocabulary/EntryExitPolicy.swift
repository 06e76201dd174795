/// When a state's entry and exit actions run.
///
/// ```swift
/// let schema = try Schema<Turnstile>(initial: .locked, entryExitPolicy: .executeAlways) {
///     define(.locked) { when(.coin) | then(.locked) }
/// }
/// ```
public struct EntryExitPolicy: Sendable, Hashable, CustomStringConvertible {
    enum Code: Sendable, Hashable { case onChangeOnly, always }
    let code: Code

    /// Entry and exit actions run only when a transition changes the state (the default).
    public static let executeOnChangeOnly = EntryExitPolicy(code: .onChangeOnly)
    /// Entry and exit actions run on every transition, even one back into the same state, as SMC does.
    public static let executeAlways = EntryExitPolicy(code: .always)

    /// The policy's name.
    public var description: String {
        switch code {
        case .onChangeOnly: "executeOnChangeOnly"
        case .always: "executeAlways"
        }
    }
}
