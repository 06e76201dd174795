/// An event type that transitions match by case, whatever payload the case carries.
///
/// Conform an enum with associated values and give it a `CaseKey` enum with one case per event
/// case. `when(.coin)` then names the key, and matches `.coin(cents: 10)` as well as
/// `.coin(cents: 50)`; actions receive the actual event.
///
/// ```swift
/// enum Event: CaseKeyed {
///     case coin(cents: Int)
///     case pass
///
///     enum CaseKey: Hashable, Sendable { case coin, pass }
///
///     var caseKey: CaseKey {
///         switch self {
///         case .coin: .coin
///         case .pass: .pass
///         }
///     }
/// }
/// ```
///
/// Events that do not conform are matched by value and must be `Hashable`.
public protocol CaseKeyed: Sendable {
    /// The payload-free identity of a case.
    associatedtype CaseKey: Hashable & Sendable
    /// The key of this event's case.
    var caseKey: CaseKey { get }
}
