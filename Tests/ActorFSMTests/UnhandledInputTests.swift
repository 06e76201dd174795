import ActorFSM
import Testing

@Suite struct UnhandledInputTests {
    let schema: Schema<State, Event>

    init() throws {
        schema = try Schema<State, Event>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
    }

    @Test func anEventWithoutTransitionIsUnhandled() {
        #expect(schema.resolve(.pass, in: .locked).unhandledKind == .noTransition)
    }

    @Test func anEventTheTableNeverNamesIsUnhandled() {
        #expect(schema.resolve(.reset, in: .locked).unhandledKind == .unknownEvent)
    }

    @Test func aStateTheTableNeverNamesIsUnhandled() {
        #expect(schema.resolve(.coin, in: .alarming).unhandledKind == .unknownState)
    }

    @Test func aPredicateTheTableNeverMentionsIsUnhandled() {
        guard case .unhandled(let reason) = schema.resolve(.coin, in: .locked, predicates: Enforcement.weak) else {
            Issue.record("expected unhandled")
            return
        }
        #expect(reason.kind == .unknownPredicate)
        #expect(reason.description == "Enforcement appears in no matching statement of the schema")
    }
}
