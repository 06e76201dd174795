@_spi(Benchmarks) @testable import ActorFSM
import Testing
import TestSupport

/// The machine's core, driven input by input without an actor: what each input decides and
/// what it asks the actor to do. Waiters are plain numbers.
@Suite struct MachineCoreTests {
    typealias Core = MachineCore<CheckoutFlow, Int>

    /// `pending` times out after 5 s into `reminded` and goes to `loading` on `.reopen`; `loading`
    /// runs a task; `paid` is untimed.
    static let schema = try! Schema<CheckoutFlow>(initial: .pending, final: [.paid, .showing]) {
        define(.pending) {
            after(.seconds(5)) | then(.reminded)
            when(.reopen) | then(.loading)
            when(.pay) | then(.paid)
            when(.ping) | then()
        }
        define(.reminded) { when(.pay) | then(.paid) }
        define(.loading, running: StateTask { .loaded }) { when(.loaded) | then(.showing) }
    }

    var storage: SchemaStorage<CheckoutFlow> { Self.schema.storage }

    func id(_ state: Checkout) -> Int32 { Self.schema.stateID(of: state)! }

    /// The transition index an event fires, or `nil`.
    func fired(_ step: Core.Begun) -> Int32? {
        if case .fires(let index) = step.found { index } else { nil }
    }

    @Test func eventsAreNumberedInOrderAndLookedUpInTheCurrentState() {
        var core = Core(startingIn: .pending, of: storage)
        let pay = core.begin(.pay, in: .none, origin: .send, of: storage, data: ())
        let loaded = core.begin(.loaded, in: .none, origin: .send, of: storage, data: ())
        #expect(pay.number == 1 && loaded.number == 2)
        #expect(fired(pay) != nil)
        guard case .unhandled = loaded.found else { Issue.record("loaded is not handled in pending"); return }
        let timeout = core.begin(nil, in: .none, origin: .timeout(after: .seconds(5)), of: storage, data: ())
        #expect(fired(timeout) != nil, "the state timeout is found by its duration")
        let unknownTimeout = core.begin(nil, in: .none, origin: .timeout(after: .seconds(6)), of: storage, data: ())
        guard case .unhandled = unknownTimeout.found else { Issue.record("no timeout of 6 s"); return }
        #expect(core.sequenceNumber == 4)
    }

    @Test func aStateTheSchemaDoesNotKnowHandlesNothing() {
        var core = Core(startingIn: .cancelled, of: storage)
        #expect(core.stateID == -1 && core.offTableState == .cancelled)
        let step = core.begin(.pay, in: .none, origin: .send, of: storage, data: ())
        guard case .unhandled(let reason) = step.found else { Issue.record("fired off the table"); return }
        #expect(reason.kind == .unknownState)
    }

    @Test func enteringATimedStateStartsANewEpochAndArmsItsTimers() {
        var core = Core(startingIn: .pending, of: storage)
        #expect(core.epoch == 1)
        let reopen = core.commit(id(.loading), in: storage)
        #expect(reopen.stateChanged && reopen.timers == .rearm(epoch: 2))
        #expect(core.stateID == id(.loading) && core.offTableState == nil)
        #expect(core.takePendingTasks() == Core.TaskStart(stateID: id(.loading), epoch: 2))
        #expect(core.takePendingTasks() == nil, "the tasks start once")
        let stay = core.commit(id(.loading), in: storage)
        #expect(!stay.stateChanged && stay.timers == .keep, "a transition that stays re-arms nothing")
        let admitsCurrent = core.admitsTimerEvent(from: 2)
        let admitsLeft = core.admitsTimerEvent(from: 1)
        #expect(admitsCurrent && !admitsLeft)
    }

    @Test func queuedTimerEventsOfAStateLeftAreDroppedAndOthersProcessed() {
        var core = Core(startingIn: .pending, of: storage)
        _ = core.commit(id(.reminded), in: storage)
        #expect(core.turn(ofEventFrom: 1) == .dropStale, "a timeout armed in pending")
        #expect(core.turn(ofEventFrom: 2) == .process, "a timer event of this state")
        #expect(core.turn(ofEventFrom: 0) == .process, "any other event")
    }

    @Test func aStoppedMachineDiscardsEveryEventWithANumberOfItsOwn() {
        var core = Core(startingIn: .pending, of: storage)
        _ = core.begin(.ping, in: .none, origin: .send, of: storage, data: ())
        #expect(closes(core.stop(.stopped), stopping: true))
        #expect(core.turn(ofEventFrom: 0) == .stop)
        #expect(core.discard(eventFrom: 0) == .recordStopped(2))
        #expect(core.discard(eventFrom: 7) == .dropStale, "a stale timer event gets no record")
        #expect(core.discard(eventFrom: 1) == .recordStopped(3), "one of the current state's timers")
        let commit = core.commit(id(.loading), in: storage)
        #expect(commit.timers == .cancel, "a stopping machine arms nothing")
        #expect(core.takePendingTasks() == nil)
        let admitsWhileStopping = core.admitsTimerEvent(from: core.epoch)
        #expect(!admitsWhileStopping)
    }

    @Test func theInitialStateIsArmedOnlyIfTheMachineStaysInIt() {
        var armed = Core(startingIn: .pending, of: storage)
        let arms = armed.armInitialState()
        #expect(arms)
        #expect(armed.takePendingTasks() == Core.TaskStart(stateID: id(.pending), epoch: 1))
        var moved = Core(startingIn: .pending, of: storage)
        _ = moved.commit(id(.reminded), in: storage)
        let armsAfterLeaving = moved.armInitialState()
        #expect(!armsAfterLeaving, "the machine left the initial state before its timers started")
        var stopped = Core(startingIn: .pending, of: storage)
        _ = stopped.stop(.stopped)
        let armsStopped = stopped.armInitialState()
        #expect(!armsStopped)
    }

    @Test func theFailurePolicyDecidesWhatAThrowingActionLeads() {
        struct Boom: Error {}
        var core = Core(startingIn: .pending, of: storage)
        guard case .none = core.failed(Boom(), policy: .resume, in: storage) else { Issue.record("resume"); return }
        var stopping = Core(startingIn: .pending, of: storage)
        #expect(closes(stopping.failed(Boom(), policy: .stop, in: storage), stopping: true))
        guard case .end(.failed(let error), _) = stopping.inboxClosed(idle: true), error is Boom else {
            Issue.record("stop for the failure")
            return
        }
        guard case .enter(let commit) = core.failed(Boom(), policy: .enter(.reminded), in: storage) else {
            Issue.record("enter a state of the schema")
            return
        }
        #expect(commit.stateChanged && commit.timers == .rearm(epoch: 2))
        guard case .enterOffTable = core.failed(Boom(), policy: .enter(.failed), in: storage), let state = core.offTableState else {
            Issue.record("enter a state the schema does not know")
            return
        }
        #expect(state == .failed && core.stateID == -1 && core.offTableState == .failed)
        #expect(core.turn(ofEventFrom: 2) == .dropStale, "leaving the table leaves the timed state too")
    }

    @Test func shuttingDownAnIdleMachineEndsItAtOnce() {
        var core = Core(startingIn: .pending, of: storage)
        #expect(closes(core.shutDown(), stopping: false))
        guard case .none = core.shutDown(), core.isShuttingDown else { Issue.record("a second caller waits for the same end"); return }
        let waits = core.awaitEnd(1)
        #expect(waits)
        guard case .end(.shutDown, let waiters) = core.inboxClosed(idle: true) else {
            Issue.record("an idle inbox ends a machine shutting down")
            return
        }
        #expect(waiters == [1] && core.hasEnded)
        guard case .none = core.shutDown(), !core.isShuttingDown else { Issue.record("an ended machine shuts nothing down"); return }
    }

    @Test func aBusyMachineEndsWhenProcessingEnds() {
        var core = Core(startingIn: .pending, of: storage)
        #expect(closes(core.shutDown(), stopping: false))
        guard case .none = core.inboxClosed(idle: false) else { Issue.record("events are queued"); return }
        #expect(closes(core.processingEnded(), stopping: true), "drained: it stops as shut down")
        guard case .end(.shutDown, let waiters) = core.inboxClosed(idle: true) else {
            Issue.record("nothing left: the machine ends")
            return
        }
        #expect(waiters.isEmpty && !core.isAcceptingEvents && core.hasStopped)
    }

    /// Whether `effect` closes the inbox, to everything when `stopping`.
    func closes(_ effect: Core.Effect, stopping: Bool) -> Bool {
        if case .closeInbox(stopping, _) = effect { true } else { false }
    }
}
