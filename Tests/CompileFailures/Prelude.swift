import ActorFSM

enum Turnstile: MachineDefinition {
    enum State: Hashable, Sendable { case locked, unlocked, alarming }
    enum Event: Hashable, Sendable { case coin, pass, reset }
}
enum A: MatchingPredicate { case x, y }
enum B: MatchingPredicate { case x, y }
@Sendable func unlock() {}
let something = true
