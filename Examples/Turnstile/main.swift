// The Swift FSM guide's turnstile as an ActorFSM schema, run by a machine actor: a scripted list
// of events, each transition record printed as it is published.
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

let gate = Machine(schema: turnstile, id: "gate-7")
let records = await gate.transitions()
let observer = Task {
    var count = 0
    for await _ in records { count += 1 }
    return count
}

print("\nRun:")
let script: [(Event, PredicateContext?)] = [
    (.coin, nil), (.coin, nil), (.pass, nil),
    (.pass, PredicateContext(Enforcement.weak)), (.pass, PredicateContext(Enforcement.strong)),
    (.coin, PredicateContext(Enforcement.strong)), (.reset, nil), (.pass, nil),
]
for (event, predicates) in script {
    let record = try await gate.send(event, predicates: predicates)
    print("  \(record)")
}
await gate.finish()
print("\nThe subscriber saw \(await observer.value) records.")
print("\nFinal state: \(await gate.state)")
