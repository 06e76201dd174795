/// The statements of the schema DSL.
///
/// The free functions (`define`, `when`, `then`, `matching`, `condition`, `actions`, `override`)
/// return these types, and the types can also be used directly, for example through type aliases:
///
/// ```swift
/// typealias d = Syntax.Define<Turnstile>
/// typealias w = Syntax.When<Turnstile>
/// typealias t = Syntax.Then<Turnstile>
///
/// let schema = try Schema<Turnstile>(initial: .locked) {
///     d(.locked)   { w(.coin) | t(.unlocked) | unlock }
///     d(.unlocked) { w(.pass) | t(.locked)   | lock }
/// }
/// ```
///
/// Each stage of a pipe has its own type, so that a statement in the wrong order
/// (`then(.a) | when(.b)`) or a block opened after a pipe does not compile.
public enum Syntax {}
