import ActorFSM
import Testing
import TestSupport

/// What a schema says of its timeouts when it is built: no machine runs here.
@Suite struct TimeoutSchemaTests {
    @Test func twoTimeoutsOfOneDurationToDifferentTargetsClash() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled, .paid]) {
                define(.pending) {
                    after(.seconds(5)) | then(.cancelled)
                    after(.seconds(5)) | then(.paid)
                }
            }
        }
        #expect(found.map(\.kind) == [.logicalClash])
        #expect(found.first?.event == "after 5s")
        #expect(found.first?.locations.map(\.line) == [base + 4, base + 5])
    }

    @Test func aTimeoutThatCanDoNothingIsAnError() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<CheckoutFlow>(initial: .pending, final: [.paid]) {
                define(.pending) {
                    when(.pay) | then(.paid)
                    after(.seconds(5)) | then()
                    after(.seconds(9)) | then(.pending)
                }
            }
        }
        #expect(found.map(\.kind) == [.timeoutWithoutEffect, .timeoutWithoutEffect])
        #expect(found.map { $0.locations[0].line } == [base + 5, base + 6])
        #expect(found.first?.message.contains("after 5s in pending stays in pending and runs no action") == true)
    }

    @Test func aTimeoutThatStaysButActsOrReentersIsAllowed() throws {
        let stays = try Schema<CheckoutFlow>(initial: .pending) {
            define(.pending) { after(.seconds(5)) | then() | {} }
        }
        let reenters = try Schema<CheckoutFlow>(initial: .pending, entryExitPolicy: .executeAlways) {
            define(.pending) { after(.seconds(5)) | then() }
        }
        #expect(stays.timeouts(of: .pending) == [Timeout(.seconds(5))])
        #expect(reenters.timeouts(of: .pending) == [Timeout(.seconds(5))])
    }

    @Test func aTimeoutMustHaveAPositiveDuration() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled]) {
                define(.pending) { after(.zero) | then(.cancelled) }
            }
        }
        #expect(found.map(\.kind) == [.invalidTimeout])
        #expect(found.first?.locations.map(\.line) == [base + 3])
    }

    @Test func conditionsAndActionsThatTakeTheEventAreRefusedOnATimeout() {
        let base: UInt = #line
        let found = diagnostics {
            try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled]) {
                define(.pending) {
                    condition { (event: CheckoutEvent) in event == .pay } | after(.seconds(5)) | then(.cancelled)
                    after(.seconds(9)) | then(.paid) | Actions { (_: CheckoutEvent) in }
                }
                define(.paid, onEntry: Actions { (_: CheckoutEvent) in }) { when(.ping) | then() }
            }
        }
        #expect(found.map(\.kind) == [.eventUnavailable, .eventUnavailable])
        #expect(found.map { $0.locations[0].line } == [base + 4, base + 5])
        #expect(found.last?.message.contains("an action and an entry action of paid take the event") == true)
    }

    @Test func aSchemaListsEachStatesTimeoutsIncludingInheritedOnes() throws {
        let expiring = SuperState<CheckoutFlow> { after(.seconds(600)) | then(.cancelled) }
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled, .reminded]) {
            define(.pending, adopts: expiring) {
                after(.seconds(30)) | then(.reminded)
                when(.pay) | then(.paid)
            }
            define(.paid) { when(.ping) | then() }
        }
        #expect(Set(schema.timeouts(of: .pending)) == [Timeout(.seconds(30)), Timeout(.seconds(600))])
        #expect(schema.timeouts(of: .paid).isEmpty)
        let timeoutTransitions = schema.transitions.filter { $0.timeout != nil }
        #expect(timeoutTransitions.map(\.eventDescription).sorted() == ["after 10m", "after 30s"])
    }

    @Test func durationsPrintInTheirLargestWholeUnit() {
        let printed = [Duration.seconds(30), .seconds(120), .seconds(7_200), .milliseconds(250), .microseconds(5),
                       .nanoseconds(7), .milliseconds(1_500)].map { Timeout($0).description }
        #expect(printed == ["after 30s", "after 2m", "after 2h", "after 250ms", "after 5µs", "after 7ns",
                            "after 1500ms"])
    }

    @Test func diagramsDrawTimeoutsAsEdges() throws {
        let schema = try Schema<CheckoutFlow>(initial: .pending, final: [.cancelled, .paid]) {
            define(.pending) {
                when(.pay) | then(.paid)
                after(.seconds(30)) | then(.cancelled)
            }
        }
        // States are numbered as they appear: pending s0, paid s1, cancelled s2.
        #expect(schema.mermaid().contains("    s0 --> s2 : after 30s\n"))
        #expect(schema.dot().contains("    s0 -> s2 [label=\"after 30s\"];\n"))
    }
}
