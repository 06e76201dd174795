/// Names the types a kind of machine works with: its states, its events, its id and its data.
///
/// A schema, its machines, their supervisor and the actions they run are all typed by one
/// definition, so an action reads its machine's id as the id type, with no cast:
///
/// ```swift
/// enum Turnstile: MachineDefinition {
///     enum State: Hashable, Sendable { case locked, unlocked }
///     enum Event: Hashable, Sendable { case coin, pass }
///     typealias ID = Int
/// }
///
/// let schema = try Schema<Turnstile>(initial: .locked) {
///     define(.locked) { when(.coin) | then(.unlocked) | { context in print("gate", context.id + 1) } }
///     define(.unlocked) { when(.pass) | then(.locked) }
/// }
/// let gate = Machine(schema: schema, id: 7)
/// ```
///
/// A definition is only a name for its types: a caseless `enum` is the usual form. State and
/// event types declared elsewhere join one with type aliases: `typealias State = OrderState`.
public protocol MachineDefinition: SendableMetatype {
    /// The states a machine can be in.
    associatedtype State: Hashable & Sendable
    /// The events a machine responds to: matched by value when `Hashable`, or by case, whatever
    /// their payload, when ``CaseKeyed``.
    associatedtype Event: Sendable
    /// The type of a machine's id, `String` unless the definition names another.
    associatedtype ID: Hashable & Sendable = String
    /// The value each machine owns beside its state (an order's amount, a retry count), `Void`
    /// unless the definition names another. Given when a machine is made, read and changed by
    /// its actions inside run-to-completion; see ``TransitionContext/data``.
    associatedtype Data: Sendable = Void
}
