@_spi(Benchmarks) @testable import ActorFSM
import Testing
import TestSupport

/// A transition's synchronous actions, composed when the schema is built: order, the commit
/// between own and entry actions, counting, failure, and the context built only when asked for.
@Suite struct SynchronousRunTests {
    struct Failure: Error {}

    typealias TestActions = Actions<Turnstile>

    @Test func runsExitThenOwnThenCommitThenEntryCountingEach() throws {
        let log = Log()
        let run = try #require(SynchronousRun(
            exit: TestActions(log.action("exit")),
            actions: TestActions { (event: Event) in log.record("own \(event)") } & TestActions(log.action("own 2")),
            entry: TestActions { (context: TransitionContext<Turnstile>) in log.record("entry \(context.target)") }))
        var completed = 0
        var contextsBuilt = 0
        try run.run(event: .coin, context: {
            contextsBuilt += 1
            return TransitionContext(event: .coin, source: .locked, target: .unlocked, predicates: .none, id: "test")
        }, commit: { log.record("commit") }, counting: &completed)
        #expect(log.lines == ["exit", "own coin", "own 2", "commit", "entry unlocked"])
        #expect(completed == 4)
        #expect(contextsBuilt == 1)
    }

    @Test func buildsNoContextWhenNoActionTakesIt() throws {
        let log = Log()
        let run = try #require(SynchronousRun(
            exit: TestActions(), actions: [log.action("a"), log.action("b")], entry: TestActions()))
        var completed = 0
        var contextsBuilt = 0
        try run.run(event: .pass, context: {
            contextsBuilt += 1
            return TransitionContext(event: .pass, source: .locked, target: .locked, predicates: .none, id: "test")
        }, commit: {}, counting: &completed)
        #expect(log.lines == ["a", "b"])
        #expect(completed == 2)
        #expect(contextsBuilt == 0)
    }

    @Test func aThrowingActionStopsTheChainBeforeTheCommit() {
        let log = Log()
        let run = SynchronousRun(
            exit: TestActions(log.action("exit")),
            actions: TestActions { () throws in throw Failure() } & TestActions(log.action("never")),
            entry: TestActions(log.action("entry never")))
        var completed = 0
        #expect(throws: Failure.self) {
            try run?.run(event: .coin, context: {
                TransitionContext(event: .coin, source: .locked, target: .unlocked, predicates: .none, id: "test")
            }, commit: { log.record("commit") }, counting: &completed)
        }
        #expect(log.lines == ["exit"])
        #expect(completed == 1)
    }

    @Test func anEventActionWithoutAnEventThrowsInsteadOfRunning() throws {
        let log = Log()
        let run = try #require(SynchronousRun(
            exit: TestActions(), actions: TestActions { (event: Event) in log.record("\(event)") }, entry: TestActions()))
        var completed = 0
        #expect(throws: MissingEventError.self) {
            try run.run(event: nil, context: {
                TransitionContext(event: nil, source: .locked, target: .locked, predicates: .none, id: "test")
            }, commit: {}, counting: &completed)
        }
        #expect(log.lines.isEmpty)
    }

    @Test func asynchronousActionsHaveNoSynchronousRun() {
        let run = SynchronousRun(exit: TestActions(), actions: TestActions { () async in }, entry: TestActions())
        #expect(run == nil)
    }

    @Test func aTransitionBuildsItsContextOnceForAllTheActionsThatTakeIt() throws {
        let log = Log()
        let takesContext = TestActions { (context: TransitionContext<Turnstile>) in
            log.record("\(context.source)->\(context.target)")
        }
        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked, onExit: takesContext) {
                when(.coin) | then(.unlocked) | takesContext & takesContext
            }
            define(.unlocked, onEntry: takesContext) {
                when(.pass) | then(.locked)
            }
        }
        let storage = schema.storage
        guard case .fires(let index) = storage.table.lookup(state: try #require(schema.stateID(of: .locked)), event: .coin, predicates: .none, data: ()) else {
            Issue.record("coin fires in locked")
            return
        }
        var completed = 0
        var contextsBuilt = 0
        try storage.actions.runSynchronously(storage.actions.hot[Int(index)], event: .coin, counting: &completed, context: {
            contextsBuilt += 1
            return TransitionContext(event: .coin, source: .locked, target: .unlocked, predicates: .none, id: "test")
        }, commit: {})
        #expect(completed == 4)
        #expect(contextsBuilt == 1)
        #expect(log.lines == Array(repeating: "locked->unlocked", count: 4))
    }
}
