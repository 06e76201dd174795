import ActorFSM
import Foundation
import Testing
import TestSupport

// Foundation declares a `Predicate` type; `MatchingPredicate` lets a file that imports both
// modules declare predicate enums unqualified.
enum Weather: MatchingPredicate { case sunny, rainy }

// A definition's `Data` is its machine's data, yet `Data` in a definition's body and in an
// extension of the package's generic types is still Foundation's.
enum Upload: MachineDefinition {
    enum State: Hashable, Sendable { case receiving, done }
    enum Event: Hashable, Sendable { case chunk(Data), end }
    typealias MachineBytes = Data
}

extension TransitionContext {
    func byteCount(of bytes: Data) -> Int { bytes.count }
}

@Suite struct FoundationPredicateTests {
    @Test func dataInADefinitionAndInExtensionsIsFoundations() {
        let context = TransitionContext<Upload>(event: .chunk(Data([1, 2, 3])), source: .receiving, target: .receiving,
                                                predicates: .none, id: "upload")
        #expect(context.byteCount(of: Data([1, 2, 3])) == 3)
        #expect(Upload.Data.self == Void.self)
        #expect(Upload.MachineBytes.self == Foundation.Data.self)
    }

    @Test func predicatesCanBeDeclaredInAFileThatImportsFoundation() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) { matching(Weather.rainy) | when(.coin) | then(.unlocked) }
        }
        #expect(schema.resolve(.coin, in: .locked, predicates: Weather.rainy).target == .unlocked)
        #expect(schema.predicateTypes.map(\.name) == ["Weather"])
    }
}
