// The Swift FSM guide's turnstile as an ActorFSM schema, driven by a scripted list of events.
// Until the actor runtime lands, this example steps the schema itself: resolve, then run the exit
// actions, the transition's actions and the entry actions, exactly in that order.
import ActorFSM

enum State: Hashable, Sendable { case locked, unlocked, alarming }
enum Event: Hashable, Sendable { case coin, pass, reset }
enum Enforcement: MatchingPredicate { case weak, strong }

@Sendable func say(_ line: String) -> @Sendable () -> Void { { print("    action: \(line)") } }

let turnstile = try Schema<State, Event>(initial: .locked) {
    let resetable = SuperState<State, Event> { when(.reset) | then(.locked) | say("alarmOff") & say("lock") }
    define(.locked, adopts: resetable, onEntry: [say("lock")]) {
        matching(Enforcement.weak)   | when(.pass) | then(.locked)   | say("smile")
        matching(Enforcement.strong) | when(.pass) | then(.alarming) | say("defconOne")
        when(.coin) | then(.unlocked)
    }
    define(.unlocked, adopts: resetable) {
        when(.coin) | then() | say("thankyou")
        when(.pass) | then(.locked)
    }
    define(.alarming, adopts: resetable, onEntry: [say("alarmOn")], onExit: [say("alarmOff")])
}

print("Transitions:")
for transition in turnstile.transitions { print("  \(transition)") }

let script: [(Event, PredicateContext)] = [
    (.coin, .none), (.coin, .none), (.pass, .none),
    (.pass, PredicateContext(Enforcement.weak)), (.pass, PredicateContext(Enforcement.strong)),
    (.coin, PredicateContext(Enforcement.strong)), (.reset, .none), (.pass, .none),
]

print("\nRun:")
var state = turnstile.initialState
for (event, predicates) in script {
    switch turnstile.resolve(event, in: state, predicates: predicates) {
    case .transition(let transition):
        print("  \(state) + \(event) \(predicates) -> \(transition.target)")
        let context = TransitionContext(event: event, source: state, target: transition.target, predicates: predicates)
        try await turnstile.exitActions(for: transition).run(in: context)
        try await transition.actions.run(in: context)
        state = transition.target
        try await turnstile.entryActions(for: transition).run(in: context)
    case .conditionFalse(let transition):
        print("  \(state) + \(event): condition false at \(transition.location)")
    case .unhandled(let reason):
        print("  \(state) + \(event) \(predicates): unhandled, \(reason)")
    }
}
print("\nFinal state: \(state)")
