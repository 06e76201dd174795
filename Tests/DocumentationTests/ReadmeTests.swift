import ActorFSM
import Testing
import TestSupport

/// The README's quick start, verbatim (`DocSnippetTests` checks it): if this fails, the README
/// is wrong.
@Suite struct ReadmeTests {
    @Test func theQuickStartRunsAndPrintsWhatTheReadmeSays() async throws {
        enum Turnstile: MachineDefinition {        // names the types; machine ids are Strings
            enum State: Hashable, Sendable { case locked, unlocked, alarming }
            enum Event: Hashable, Sendable { case coin, pass, reset }
        }
        enum Enforcement: MatchingPredicate { case weak, strong }

        let turnstile = try Schema<Turnstile>(initial: .locked) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) }
            define(.locked, adopts: resetable) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)   | { print("smile") }
                matching(Enforcement.strong) | when(.pass) | then(.alarming) | { print("alarm!") }
                when(.coin) | then(.unlocked)
            }
            define(.unlocked, adopts: resetable) { when(.pass) | then(.locked) }
            define(.alarming, adopts: resetable, onEntry: [{ print("alarm on") }])
        }

        let gate = Machine(schema: turnstile, id: "gate-7")     // an actor; share the schema freely
        let record = try await gate.send(.pass, predicates: Enforcement.strong)
        print(record)   // #1 gate-7: locked --pass [Enforcement.strong]--> alarming (transitioned)
        #expect("\(record)" == "#1 gate-7: locked --pass [Enforcement.strong]--> alarming (transitioned)")
    }
}
