// The Swift FSM guide's turnstile, grown stage by stage as in the guide: a basic table, an
// alarming state, a super state, entry and exit actions, then predicates. Each stage runs on a
// machine actor with the same scripted events, printing each transition record.
import ActorFSM
import ExampleSchemas

typealias State = TurnstileExample.State
typealias Event = TurnstileExample.Event
typealias Enforcement = TurnstileExample.Enforcement

@Sendable func say(_ line: String) -> Actions<TurnstileExample> { Actions { print("      action: \(line)") } }

let stages: [(String, Schema<TurnstileExample>)] = [
    ("1. The basic table", try Schema<TurnstileExample>(initial: .locked) {
        define(.locked) {
            when(.coin) | then(.unlocked) | say("unlock")
            when(.pass) | then(.locked)   | say("alarm")
        }
        define(.unlocked) {
            when(.coin) | then(.unlocked) | say("thankyou")
            when(.pass) | then(.locked)   | say("lock")
        }
    }),
    ("2. An alarming state, reset by a repairman", try Schema<TurnstileExample>(initial: .locked) {
        define(.locked) {
            when(.coin)  | then(.unlocked) | say("unlock")
            when(.pass)  | then(.alarming) | say("alarmOn")
            when(.reset) | then()          | say("alarmOff") & say("lock")
        }
        define(.unlocked) {
            when(.reset) | then(.locked)   | say("alarmOff") & say("lock")
            when(.coin)  | then(.unlocked) | say("thankyou")
            when(.pass)  | then(.locked)   | say("lock")
        }
        define(.alarming) {
            when(.coin)  | then()
            when(.pass)  | then()
            when(.reset) | then(.locked) | say("alarmOff") & say("lock")
        }
    }),
    ("3. A super state removes the repeated reset", try Schema<TurnstileExample>(initial: .locked) {
        let resetable = SuperState<TurnstileExample> { when(.reset) | then(.locked) | say("alarmOff") & say("lock") }
        define(.locked, adopts: resetable) {
            when(.coin) | then(.unlocked) | say("unlock")
            when(.pass) | then(.alarming) | say("alarmOn")
        }
        define(.unlocked, adopts: resetable) {
            when(.coin) | then(.unlocked) | say("thankyou")
            when(.pass) | then(.locked)   | say("lock")
        }
        define(.alarming, adopts: resetable)
    }),
    ("4. Entry and exit actions make the alarm explicit", try Schema<TurnstileExample>(initial: .locked) {
        let resetable = SuperState<TurnstileExample> { when(.reset) | then(.locked) }
        define(.locked, adopts: resetable, onEntry: say("lock")) {
            when(.coin) | then(.unlocked)
            when(.pass) | then(.alarming)
        }
        define(.unlocked, adopts: resetable, onEntry: say("unlock")) {
            when(.coin) | then(.unlocked) | say("thankyou")
            when(.pass) | then(.locked)
        }
        define(.alarming, adopts: resetable, onEntry: say("alarmOn"), onExit: say("alarmOff"))
    }),
    ("5. Predicates: weak enforcement smiles, strong enforcement alarms",
     try TurnstileExample.schema { print("      action: \($0)") }),
]

let script: [(Event, PredicateContext?)] = [
    (.coin, nil), (.coin, nil), (.pass, PredicateContext(Enforcement.weak)),
    (.pass, PredicateContext(Enforcement.strong)), (.coin, nil), (.reset, nil),
]

var recordCount = 0
for (title, schema) in stages {
    print("\n\(title)")
    let gate = Machine(schema: schema, id: "gate-7")
    let records = await gate.records()
    let observer = Task {
        var count = 0
        for await _ in records { count += 1 }
        return count
    }
    for (event, predicates) in script {
        // Stages before predicates ignore them: their tables name no predicate type.
        let usesPredicates = !schema.predicateTypes.isEmpty
        let record = try await gate.send(event, predicates: usesPredicates ? predicates : nil)
        print("    \(record)")
    }
    await gate.shutdown()
    recordCount += await observer.value
    print("    final state: \(await gate.state)")
}
print("\nThe subscribers saw \(recordCount) records in all.")
