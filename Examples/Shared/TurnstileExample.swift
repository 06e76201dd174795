import ActorFSM

/// The Swift FSM guide's turnstile, with an alarming state, a super state, entry and exit
/// actions and predicates: the schema the examples run and draw.
public enum TurnstileExample: MachineDefinition {
    /// The turnstile's states.
    public enum State: Hashable, Sendable { case locked, unlocked, alarming }
    /// What happens at the turnstile.
    public enum Event: Hashable, Sendable { case coin, pass, reset }
    /// How strictly a pass without a coin is treated.
    public enum Enforcement: MatchingPredicate { case weak, strong }

    /// Builds the schema; its actions report their names to `say`.
    public static func schema(say: @escaping @Sendable (String) -> Void = { _ in }) throws -> Schema<TurnstileExample> {
        let action: (String) -> Actions<TurnstileExample> = { name in Actions { say(name) } }
        return try Schema<TurnstileExample>(initial: .locked) {
            let resetable = SuperState<TurnstileExample> { when(.reset) | then(.locked) | action("alarmOff") & action("lock") }
            define(.locked, adopts: resetable, onEntry: action("lock")) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)   | action("smile")
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | action("defconOne")
                when(.coin) | then(.unlocked)
            }
            define(.unlocked, adopts: resetable) {
                when(.coin) | then() | action("thankyou")
                when(.pass) | then(.locked)
            }
            define(.alarming, adopts: resetable, onEntry: action("alarmOn"), onExit: action("alarmOff"))
        }
    }
}
