import ActorFSM
import Testing
import TestSupport

@Suite struct UnhandledInputTests {
    let schema: Schema<Turnstile>

    init() throws {
        schema = try Schema<Turnstile>(initial: .locked) {
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

    @Test func aStateFoundByEqualityRatherThanByItsBytesResolvesAsTheNamedOne() throws {
        /// `==` equates `open` and `ajar`: the table names only `open`, yet `ajar` must find it.
        enum Door: Hashable, Sendable {
            case open, ajar, shut
            static func == (lhs: Door, rhs: Door) -> Bool { lhs.isShut == rhs.isShut }
            func hash(into hasher: inout Hasher) { hasher.combine(isShut) }
            private var isShut: Bool { if case .shut = self { true } else { false } }
        }
        enum Doors: MachineDefinition {
            typealias State = Door
            typealias Event = Turnstile.Event
        }
        let doors = try Schema<Doors>(initial: .open) {
            define(.open) { when(.pass) | then(.shut) }
            define(.shut) { when(.coin) | then(.open) }
        }
        #expect(doors.resolve(.pass, in: .ajar).firingTransition?.target == .shut)
        #expect(doors.resolve(.coin, in: .shut).firingTransition?.target == .open)
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
