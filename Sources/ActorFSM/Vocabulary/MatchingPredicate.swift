/// A type whose cases describe the circumstances in which an event arrives, used with `matching`.
///
/// Conform an enum without associated values; every case must be listed by `allCases`.
///
/// ```swift
/// enum Enforcement: MatchingPredicate { case weak, strong }
///
/// let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
///     define(.locked) {
///         matching(Enforcement.weak)   | when(.pass) | then(.locked)
///         matching(Enforcement.strong) | when(.pass) | then(.alarming)
///     }
/// }
/// ```
///
/// The Swift FSM guide calls this protocol `Predicate`. Foundation also declares a type named
/// `Predicate`, so a file that imports both modules could not write `enum E: Predicate`
/// unqualified. `MatchingPredicate` is named after the `matching` statement that consumes it.
public protocol MatchingPredicate: Hashable, CaseIterable, Sendable {}

extension MatchingPredicate {
    /// `Enforcement.weak`: the type name and the case (as they were in the sending process, for a
    /// predicate decoded from another).
    var qualifiedName: String { "\(typeName).\(caseName)" }
    /// `Enforcement`.
    package var typeName: String { (self as? any NamedPredicate)?.typeName ?? "\(Self.self)" }
    /// `weak`.
    package var caseName: String { (self as? any NamedPredicate)?.caseName ?? "\(self)" }
}

/// A predicate that stands for one of another process's, which it names: it prints as that one.
package protocol NamedPredicate {
    /// The original's type name.
    var typeName: String { get }
    /// The original's case name.
    var caseName: String { get }
}

extension MatchingPredicate {
    /// This case's position in `allCases`, its dense id in every schema, or -1 if `allCases`
    /// does not list it. O(1) for a payload-free enum (see ``CaseOrdinals``).
    @inlinable package var ordinal: Int32 { CaseOrdinals.ordinal(of: self) }
}
