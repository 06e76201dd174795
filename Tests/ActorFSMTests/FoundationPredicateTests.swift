import ActorFSM
import Foundation
import Testing

// Foundation declares a `Predicate` type; `MatchingPredicate` lets a file that imports both
// modules declare predicate enums unqualified.
enum Weather: MatchingPredicate { case sunny, rainy }

@Suite struct FoundationPredicateTests {
    @Test func predicatesCanBeDeclaredInAFileThatImportsFoundation() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) { matching(Weather.rainy) | when(.coin) | then(.unlocked) }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Weather.rainy).target == .unlocked)
        #expect(schema.predicateTypes.map(\.name) == ["Weather"])
    }
}
