import ActorFSM
import Testing
import TestSupport

@Suite struct SchemaErrorTests {
    @Test func anEmptyTableIsAnError() {
        let line: UInt = #line + 1
        let found = diagnostics { try Schema<Turnstile>(initial: .locked) {} }
        #expect(found.map(\.kind) == [.emptyTable])
        #expect(found.first?.locations.map(\.line) == [line])
    }

    @Test func anEmptyDefineOrSuperStateIsAnError() {
        let base: UInt = #line
        let empty = SuperState<Turnstile> {}
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked) {}
                define(.unlocked, adopts: empty) { when(.coin) | then(.locked) }
            }
        }
        #expect(found.map(\.kind) == [.emptyBlock, .emptyBlock])
        #expect(found.map { $0.locations[0].line }.sorted() == [base + 1, base + 4])
    }

    @Test func aStateThatIsNeitherDefinedNorFinalIsAnError() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .unlocked) {
                define(.locked) {
                    when(.coin) | then(.alarming)
                    when(.pass) | then(.alarming)
                }
            }
        }
        #expect(found.map(\.kind) == [.undefinedState, .undefinedState])
        // The initial state at the schema's line, the target at each statement that leads to it.
        #expect(found.map(\.state) == ["unlocked", "alarming"])
        #expect(found.map { $0.locations.map(\.line) } == [[base + 2], [base + 4, base + 5]])
        #expect(found.last?.message.contains("list it in `final:`") == true)
    }

    @Test func finalStatesNeedNoDefineAndMayHaveNone() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) { when(.coin) | then(.alarming) }
        }
        #expect(schema.finalStates == [.alarming])
        #expect(schema.resolve(.coin, in: .alarming).unhandledKind == .noTransition)
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.alarming, .locked]) {
                define(.locked) { when(.coin) | then(.alarming) }
            }
        }
        #expect(found.map(\.kind) == [.finalStateWithTransitions])
        #expect(found.first?.locations.map(\.line) == [base + 3])
        #expect(found.first?.state == "locked")
    }

    @Test func duplicateTransitionsAreAnError() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    when(.coin) | then(.unlocked) | {}
                    when(.coin) | then(.unlocked) | {}
                }
            }
        }
        #expect(found.map(\.kind) == [.duplicateTransitions])
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
    }

    @Test func aLogicalClashIsAnError() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
                define(.locked) {
                    when(.coin) | then(.unlocked)
                    when(.coin) | then(.locked)
                }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
        #expect(found.first?.message.contains("cannot go both to unlocked and to locked on coin") == true)
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
    }

    @Test func everyProblemIsReportedAtOnceWithItsLocation() throws {
        let base: UInt = #line
        do {
            _ = try Schema<Turnstile>(initial: .locked) {
                define(.locked) {
                    when(.coin) | then(.unlocked)
                    when(.coin) | then(.locked)
                    override { when(.pass) | then(.locked) }
                }
                define(.unlocked) {}
            }
            Issue.record("the schema should not build")
        } catch {
            #expect(error.diagnostics.map(\.kind) == [.logicalClash, .nothingToOverride, .emptyBlock])
            let text = "\(error)"
            #expect(text.hasPrefix("The schema has 3 problems:"))
            #expect(text.contains("ActorFSMTests/SchemaErrorTests.swift:\(base + 4): logical clash:"))
            #expect(text.contains("(see also ActorFSMTests/SchemaErrorTests.swift:\(base + 5))"))
            #expect(text.contains("SchemaErrorTests.swift:\(base + 6): nothing to override:"))
            #expect(text.contains("SchemaErrorTests.swift:\(base + 8): empty block:"))
        }
    }
}
