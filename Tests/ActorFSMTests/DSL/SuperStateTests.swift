import ActorFSM
import Testing
import TestSupport

@Suite struct SuperStateTests {
    @Test func adoptersInheritTransitions() throws {
        let schema = try Schema<Turnstile>(initial: .locked) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) }
            define(.locked, adopts: resetable) { when(.coin) | then(.unlocked) }
            define(.unlocked, adopts: resetable) { when(.pass) | then(.locked) }
            define(.alarming, adopts: resetable)
        }
        for state: State in [.locked, .unlocked, .alarming] {
            #expect(schema.resolve(.reset, in: state).target == .locked)
        }
        #expect(schema.transitions.count == 5)
    }

    @Test func inlineSuperStatesNeedNoTypeArguments() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.locked]) {
            define(.alarming, adopts: SuperState { when(.reset) | then(.locked) })
        }
        #expect(schema.resolve(.reset, in: .alarming).target == .locked)
    }

    @Test func superStatesCombineTheSuperStatesTheyAdopt() throws {
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let s2 = SuperState<Turnstile> { when(.pass) | then(.alarming) }
        let s3 = SuperState(adopts: s1, s2)
        let nested = SuperState(adopts: s3) { when(.reset) | then(.locked) }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) { define(.locked, adopts: nested) }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked).target == .alarming)
        #expect(schema.resolve(.reset, in: .locked).target == .locked)
    }

    @Test func entryAndExitActionsAreInheritedSuperStatesFirst() async throws {
        let log = Log()
        let s1 = SuperState<Turnstile>(onEntry: [log.action("s1 entry")], onExit: [log.action("s1 exit")]) {
            when(.coin) | then(.unlocked)
        }
        let s2 = SuperState<Turnstile>(onEntry: [log.action("s2 entry")], onExit: [log.action("s2 exit")]) {
            when(.pass) | then(.locked)
        }
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked, adopts: SuperState(adopts: s1, s2), onEntry: [log.action("own entry")],
                   onExit: [log.action("own exit")])
            define(.unlocked, adopts: s2)
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        try await driver.send(.pass)
        #expect(log.lines == ["s1 exit", "s2 exit", "own exit", "s2 entry", "s2 exit", "s1 entry", "s2 entry", "own entry"])
        #expect(schema.entryActions(of: .locked).isSynchronous)
    }

    @Test func inheritedEntryActionsRunInOrder() async throws {
        let log = Log()
        let s1 = SuperState<Turnstile>(onEntry: [log.action("unlock")]) { when(.coin) | then(.unlocked) }
        let s2 = SuperState<Turnstile>(onEntry: [log.action("alarmOn")]) { when(.pass) | then(.alarming) }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) { when(.coin) | then(.unlocked) }
            define(.unlocked, adopts: SuperState(adopts: s1, s2), onEntry: [log.action("own")])
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["unlock", "alarmOn", "own"])
    }

    @Test func overrideReplacesTheInheritedTransition() async throws {
        let log = Log()
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) | log.action("unlock") }
        let s2 = SuperState(adopts: s1) { override { when(.coin) | then(.locked) | log.action("grumpy s2") } }
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked, adopts: s1) { override { when(.coin) | then(.locked) | log.action("grumpy") } }
            define(.unlocked, adopts: s2)
        }
        #expect(schema.resolve(.coin, in: .locked).target == .locked)
        #expect(schema.resolve(.coin, in: .unlocked).target == .locked)
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["grumpy"])
    }

    @Test func overrideReplacesEveryInheritedMatch() throws {
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let s2 = SuperState<Turnstile> { when(.coin) | then(.alarming) }
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked, adopts: s1, s2) { override { when(.coin) | then(.locked) } }
        }
        #expect(schema.transitions.count == 1)
        #expect(schema.resolve(.coin, in: .locked).target == .locked)
    }

    @Test func inAChainOfOverridesTheLastWins() async throws {
        let log = Log()
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) | log.action("a1") }
        let s2 = SuperState(adopts: s1) { override { when(.coin) | then(.unlocked) | log.action("a2") } }
        let s3 = SuperState(adopts: s2) { override { when(.coin) | then(.unlocked) | log.action("a3") } }
        let s4 = SuperState(adopts: s3) { override { when(.coin) | then(.unlocked) | log.action("a4") } }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked, adopts: s4) { override { when(.coin) | then(.unlocked) | log.action("a5") } }
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["a5"])
    }

    @Test func inheritingAClashWithoutOverrideIsAnError() {
        let base: UInt = #line
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let s2 = SuperState(adopts: s1) { when(.coin) | then(.locked) }
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.unlocked, adopts: s2)
                define(.locked, adopts: s1) { when(.coin) | then(.locked) }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash, .logicalClash])
        #expect(Set(found.map { $0.locations.map(\.line) }) == [[base + 1, base + 2], [base + 1, base + 6]])
        #expect(Set(found.compactMap(\.state)) == ["locked", "unlocked"])
        #expect(found.allSatisfy { $0.locations.allSatisfy { $0.fileID.hasSuffix("SuperStateTests.swift") } })
    }

    @Test func multipleInheritanceOfTheSameTransitionIsADuplicate() {
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let s2 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let line: UInt = #line - 2
        let found = diagnostics { try Schema<Turnstile>(initial: .locked, final: [.unlocked]) { define(.locked, adopts: s1, s2) } }
        #expect(found.map(\.kind) == [.duplicateTransitions])
        #expect(found.first?.locations.map(\.line) == [line, line + 1])
    }

    @Test func aSuperStateAdoptedTwiceCountsOnce() async throws {
        let log = Log()
        let base = SuperState<Turnstile>(onEntry: [log.action("base")]) { when(.reset) | then(.locked) }
        let left = SuperState(adopts: base) { when(.coin) | then(.unlocked) }
        let right = SuperState(adopts: base, onEntry: [log.action("right")]) { when(.pass) | then(.alarming) }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) { when(.coin) | then(.unlocked) }
            // Directly twice, and through two parents: a diamond.
            define(.unlocked, adopts: base, left, right, base)
        }
        let fromUnlocked = schema.transitions.filter { (transition: Transition<Turnstile>) in transition.source == .unlocked }
        let events: [String] = ["reset", "coin", "pass"]
        #expect(fromUnlocked.map(\.eventDescription) == events)
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["base", "right"])
    }

    @Test func anOverrideInOneBranchOfADiamondDoesNotDependOnTheOrderOfAdoption() {
        let shared = SuperState<Turnstile> {
            when(.coin) | then(.unlocked)
            when(.reset) | then(.locked)
        }
        let left = SuperState(adopts: shared) { when(.pass) | then(.locked) }
        let right = SuperState(adopts: shared) { override { when(.coin) | then(.alarming) } }
        for (first, second) in [(left, right), (right, left)] {
            let found = diagnostics {
                try Schema<Turnstile>(initial: .locked, final: [.unlocked, .alarming]) {
                    define(.locked, adopts: first, second)
                }
            }
            // The left branch brings the shared coin, the right one its override of it: a clash
            // either way, and the override replaced something in its own branch.
            #expect(found.map(\.kind) == [.logicalClash])
        }
        let schema = try? Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked, adopts: right, shared)
        }
        #expect(schema == nil, "the shared coin comes back through the direct adoption and clashes")
    }

    @Test func superStatesMadeByOneFunctionAreDistinct() throws {
        func goes(on event: Event, to target: State) -> SuperState<Turnstile> {
            SuperState { when(event) | then(target) }
        }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked, .alarming]) {
            define(.locked, adopts: goes(on: .coin, to: .unlocked), goes(on: .pass, to: .alarming))
        }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked).target == .alarming)
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked, final: [.unlocked, .alarming]) {
                define(.locked, adopts: goes(on: .coin, to: .unlocked), goes(on: .coin, to: .alarming))
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
    }

    @Test func overrideWithNothingToOverrideIsAnError() {
        let line: UInt = #line + 3
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked) { override { when(.coin) | then(.locked) } }
            }
        }
        #expect(found.map(\.kind) == [.nothingToOverride])
        #expect(found.first?.locations.map(\.line) == [line])
        #expect(found.first?.event == "coin")
    }

    @Test func overrideInTheParentRatherThanTheChildIsOutOfOrder() {
        let base: UInt = #line
        let s1 = SuperState<Turnstile> { override { when(.coin) | then(.locked) } }
        let s2 = SuperState(adopts: s1) { when(.coin) | then(.unlocked) }
        let found = diagnostics { try Schema<Turnstile>(initial: .locked, final: [.unlocked]) { define(.locked, adopts: s2) } }
        #expect(found.map(\.kind) == [.overridesOutOfOrder])
        #expect(found.first?.locations.map(\.line) == [base + 1, base + 2])
    }

    @Test func overrideReplacesInheritedTransitionsOfTheEventWhateverTheirPredicates() throws {
        let s1 = SuperState<Turnstile> {
            matching(A.x) | when(.coin) | then(.unlocked)
            matching(A.y) | when(.coin) | then(.alarming)
            when(.pass) | then(.alarming)
        }
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked, adopts: s1) { override { when(.coin) | then(.locked) } }
        }
        #expect(schema.transitions.count == 2)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.x).target == .locked)
        #expect(schema.resolve(.coin, in: .locked, predicates: A.y).target == .locked)
    }

    @Test func twoOverridesOfOneTransitionAreDuplicatesNotOverridesOfNothing() {
        let base: UInt = #line
        let s1 = SuperState<Turnstile> { when(.coin) | then(.unlocked) }
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked, adopts: s1) {
                    override {
                        when(.coin) | then(.locked)
                        when(.coin) | then(.locked)
                    }
                }
            }
        }
        #expect(found.map(\.kind) == [.duplicateTransitions])
        #expect(found.first?.locations.map(\.line) == [base + 6, base + 7])
    }

    @Test func aProblemInASuperStateIsReportedOnceForAllAdopters() {
        let base: UInt = #line
        let empty = SuperState<Turnstile> {}
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked, adopts: empty) { when(.coin) | then(.unlocked) }
                define(.unlocked, adopts: empty) { when(.coin) | then(.locked) }
                define(.alarming, adopts: empty)
            }
        }
        #expect(found.map(\.kind) == [.emptyBlock])
        #expect(found.first?.locations.map(\.line) == [base + 1])
        #expect(found.first?.state == nil)
    }

    @Test func overrideInsideTheSameScopeIsADuplicate() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<Turnstile>(initial: .locked) {
                define(.locked) {
                    when(.coin) | then(.locked)
                    override { when(.coin) | then(.locked) }
                }
            }
        }
        #expect(found.map(\.kind) == [.duplicateTransitions])
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
        #expect(found.first?.state == "locked")
    }
}
