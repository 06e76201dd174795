// The Swift FSM guide's turnstile, run by a machine actor: a scripted list of events, each
// transition record printed as `send` returns it.
import ActorFSM
import ExampleSchemas

typealias Turnstile = TurnstileExample

let turnstile = try Turnstile.schema { print("    action: \($0)") }

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
let script: [(Turnstile.Event, PredicateContext?)] = [
    (.coin, nil), (.coin, nil), (.pass, nil),
    (.pass, PredicateContext(Turnstile.Enforcement.weak)), (.pass, PredicateContext(Turnstile.Enforcement.strong)),
    (.coin, PredicateContext(Turnstile.Enforcement.strong)), (.reset, nil), (.pass, nil),
]
for (event, predicates) in script {
    let record = try await gate.send(event, predicates: predicates)
    print("  \(record)")
}
await gate.finish()
print("\nThe subscriber saw \(await observer.value) records.")
print("\nFinal state: \(await gate.state)")
