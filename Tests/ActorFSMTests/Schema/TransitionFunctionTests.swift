import ActorFSM
import Testing
import TestSupport

@Suite struct TransitionFunctionTests {
    static func next(_ state: Counter.State, _ event: Counter.Event) -> Counter.State? {
        switch (state, event) {
        case (.one, .increment): .two
        case (.two, .increment): .three
        case (.two, .decrement): .one
        case (.three, .decrement): .two
        case (.two, .reset), (.three, .reset): .one
        case (.one, .reset): .one
        default: nil
        }
    }

    static func table() throws -> Schema<Counter> {
        try Schema<Counter>(initial: .one) {
            define(.one) {
                when(.increment) | then(.two)
                when(.reset) | then(.one)
            }
            define(.two) {
                when(.increment) | then(.three)
                when(.decrement) | then(.one)
                when(.reset) | then(.one)
            }
            define(.three) {
                when(.decrement) | then(.two)
                when(.reset) | then(.one)
            }
        }
    }

    @Test func aTransitionFunctionBuildsTheTableTheDSLBuilds() throws {
        let function = try Schema<Counter>(initial: .one, transitions: Self.next)
        let table = try Self.table()
        let described = { (schema: Schema<Counter>) in
            schema.transitions.map { "\($0.source) \($0.eventDescription) \($0.target)" }.sorted()
        }
        #expect(described(function) == described(table))
        #expect(function.dot(name: "Counter") == table.dot(name: "Counter"))
        #expect(function.mermaid() == table.mermaid())
        for state in Counter.State.allCases {
            for event in Counter.Event.allCases {
                #expect(function.resolve(event, in: state).target == table.resolve(event, in: state).target)
                #expect(function.resolve(event, in: state).unhandledKind == table.resolve(event, in: state).unhandledKind)
            }
        }
        #expect(function.resolve(.increment, in: .three).unhandledKind == .noTransition)
    }

    @Test func theFunctionIsAskedOncePerPairWhenTheSchemaIsBuilt() async throws {
        let calls = Locked(0)
        let schema = try Schema<Counter>(initial: .one) { state, event in
            calls.withLock { $0 += 1 }
            return Self.next(state, event)
        }
        #expect(calls.withLock { $0 } == 9)
        let machine = Machine(schema: schema, id: "counter")
        #expect(try await machine.send(.increment).target == .two)
        #expect(try await machine.send(.increment).target == .three)
        #expect(try await machine.send(.increment).outcomeName == "unhandled")
        #expect(try await machine.send(.reset).target == .one)
        #expect(calls.withLock { $0 } == 9)
    }

    @Test func aFunctionSchemaIsValidatedLikeATable() {
        let line: UInt = #line + 1
        let found = diagnostics { try Schema<Counter>(initial: .one, final: [.three]) { state, event in
            Self.next(state, event)
        } }
        #expect(found.map(\.kind).contains(.finalStateWithTransitions))
        #expect(found.allSatisfy { $0.locations.allSatisfy { $0.line == line } })

        let deadEnd = diagnostics { try Schema<Counter>(initial: .one) { state, event in
            state == .one && event == .increment ? .two : nil
        } }
        #expect(deadEnd.map(\.kind) == [.undefinedState])
        #expect(deadEnd.first?.state == "two")
    }
}
