import ActorFSM
import Testing
import TestSupport

@Suite struct BasicSyntaxTests {
    @Test func turnstileFollowsItsTable() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | log.action("unlock")
                when(.pass) | then(.locked)   | log.action("alarm")
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked) | log.action("thankyou")
                when(.pass) | then(.locked)   | log.action("lock")
            }
        }
        var driver = Driver(schema)
        for event: Event in [.pass, .coin, .coin, .pass] { try await driver.send(event) }
        #expect(log.lines == ["alarm", "unlock", "thankyou", "lock"])
        #expect(driver.state == .locked)
    }

    @Test func thenWithoutStateStaysAndActionsAreOptional() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.coin)  | then(.unlocked)
                when(.pass)  | then(.alarming) | log.action("alarmOn")
                when(.reset) | then()          | { log.record("alarmOff"); log.record("lock") }
            }
            define(.alarming) {
                when(.coin)  | then()
                when(.reset) | then(.locked) | log.action("reset")
            }
        }
        #expect(schema.resolve(.reset, in: .locked).target == .locked)
        #expect(schema.resolve(.coin, in: .alarming).target == .alarming)
        #expect(schema.resolve(.coin, in: .locked).firingTransition?.actionCount == 0)
        var driver = Driver(schema)
        try await driver.send(.reset)
        try await driver.send(.pass)
        try await driver.send(.coin)
        try await driver.send(.reset)
        #expect(log.lines == ["alarmOff", "lock", "alarmOn", "reset"])
    }

    @Test func whenWithOrExpandsToOneTransitionPerEvent() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) { when(.coin, or: .pass, .reset) | then(.unlocked) }
        }
        #expect(schema.transitions.count == 3)
        for event: Event in [.coin, .pass, .reset] {
            #expect(schema.resolve(event, in: .locked).target == .unlocked)
        }
    }

    @Test func actionsRunInUMLOrderAroundTheStateChange() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked, onExit: [log.action("exit locked")]) {
                when(.coin) | then(.unlocked) | log.action("transition")
            }
            define(.unlocked, onEntry: [log.action("enter unlocked")]) { when(.pass) | then(.locked) }
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["exit locked", "transition", "enter unlocked"])
    }

    @Test func entryAndExitRunOnlyOnChangeByDefault() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .unlocked) {
            define(.unlocked, onEntry: [log.action("unlock")], onExit: [log.action("leave")]) {
                when(.coin) | then(.unlocked) | log.action("thankyou")
                when(.pass) | then(.locked)
            }
            define(.locked) { when(.coin) | then(.unlocked) }
        }
        #expect(schema.entryExitPolicy == .executeOnChangeOnly)
        var driver = Driver(schema)
        try await driver.send(.coin)
        try await driver.send(.pass)
        try await driver.send(.coin)
        #expect(log.lines == ["thankyou", "leave", "unlock"])
    }

    @Test func executeAlwaysRunsEntryAndExitOnEveryTransition() async throws {
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .unlocked, entryExitPolicy: .executeAlways) {
            define(.unlocked, onEntry: [log.action("unlock")], onExit: [log.action("leave")]) {
                when(.coin) | then(.unlocked) | log.action("thankyou")
            }
        }
        var driver = Driver(schema)
        try await driver.send(.coin)
        #expect(log.lines == ["leave", "thankyou", "unlock"])
    }

    @Test func anActionErrorStopsTheListAndReachesTheCaller() async throws {
        struct Jammed: Error {}
        let log = Log()
        let schema = try Schema<Turnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) {
                when(.coin) | then(.unlocked) | [log.action("first"), { throw Jammed() }, log.action("never")]
            }
        }
        var driver = Driver(schema)
        await #expect(throws: Jammed.self) { try await driver.send(.coin) }
        #expect(log.lines == ["first"])
    }

    @Test func severalDefinesOfOneStateAddUp() throws {
        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming, .unlocked]) {
            define(.locked) { when(.coin) | then(.unlocked) }
            define(.locked) { when(.pass) | then(.alarming) }
        }
        #expect(schema.resolve(.coin, in: .locked).target == .unlocked)
        #expect(schema.resolve(.pass, in: .locked).target == .alarming)
    }
}
