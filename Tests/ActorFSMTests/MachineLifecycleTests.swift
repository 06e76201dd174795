@testable import ActorFSM
import Testing
import TestSupport

/// The machine's lifecycle, driven input by input without a machine; waiters are plain numbers.
@Suite struct MachineLifecycleTests {
    typealias Lifecycle = MachineLifecycle<Int>

    /// The stage's name and what it carries, for comparisons.
    private func describe(_ lifecycle: Lifecycle) -> String {
        switch lifecycle.stage {
        case .running(let waiters): waiters.isEmpty ? "running" : "running \(waiters)"
        case .finishing(let waiters): "finishing \(waiters)"
        case .stopping(let reason, let waiters): "stopping \(reason) \(waiters)"
        case .stopped(let reason): "stopped \(reason)"
        }
    }

    private func describe(_ action: Lifecycle.EndAction) -> String {
        switch action {
        case .none: "none"
        case .stopFinished: "stop finished"
        case .end(let reason, let waiters): "end \(reason) \(waiters)"
        }
    }

    @Test func aRunningMachineTakesEventsAndHasNothingToEnd() {
        var lifecycle = Lifecycle()
        #expect(lifecycle.isRunning && !lifecycle.isFinishing && !lifecycle.hasStopped && !lifecycle.hasEnded)
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "none")
        #expect(describe(lifecycle) == "running")
        #expect(lifecycle.termination == nil)
    }

    @Test func thoseWaitingOnARunningMachineWaitUntilItEnds() {
        var lifecycle = Lifecycle()
        let waits = lifecycle.awaitEnd(1)
        #expect(waits, "run() waits for the end while the machine runs")
        #expect(describe(lifecycle) == "running [1]")
        let finish = lifecycle.finish()
        #expect(finish == .closeInbox)
        #expect(describe(lifecycle) == "finishing [1]", "the waiter carries over to the finish")
        _ = lifecycle.stop(.stopped)
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "end stopped [1]")
        #expect(lifecycle.termination.map { "\($0)" } == "stopped")
    }

    @Test func finishingClosesTheInboxOnceAndEndsAfterProcessing() {
        var lifecycle = Lifecycle()
        let first = lifecycle.finish()
        let second = lifecycle.finish()
        #expect(first == .closeInbox && second == .awaitEnd)
        #expect(lifecycle.isFinishing && !lifecycle.isRunning && !lifecycle.hasStopped)
        let waits = (lifecycle.awaitEnd(1), lifecycle.awaitEnd(2))
        #expect(waits == (true, true))
        // Processing ends: the machine must stop as finished, which keeps the waiters.
        let drained = describe(lifecycle.processingEnded())
        #expect(drained == "stop finished")
        let stop = lifecycle.stop(.finished)
        #expect(stop == .closeInboxAndCancel)
        #expect(describe(lifecycle) == "stopping finished [1, 2]")
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "end finished [1, 2]")
        #expect(lifecycle.hasEnded && lifecycle.hasStopped)
        let late = lifecycle.awaitEnd(3)
        let again = describe(lifecycle.processingEnded())
        #expect(!late, "an ended machine is not waited for")
        #expect(again == "none", "it ends once")
    }

    @Test func stoppingTakesOverAFinishAndItsWaiters() {
        var lifecycle = Lifecycle()
        _ = lifecycle.finish()
        _ = lifecycle.awaitEnd(7)
        let stop = lifecycle.stop(.stopped)
        let secondStop = lifecycle.stop(.finished)
        let finish = lifecycle.finish()
        let waits = lifecycle.awaitEnd(8)
        #expect(stop == .closeInboxAndCancel)
        #expect(secondStop == .none, "the first reason stands")
        #expect(finish == .none && waits)
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "end stopped [7, 8]")
        #expect(describe(lifecycle) == "stopped stopped")
    }

    @Test func aFailureStopsARunningMachineWithItsError() {
        struct Boom: Error {}
        var lifecycle = Lifecycle()
        let stop = lifecycle.stop(.failed(Boom()))
        #expect(stop == .closeInboxAndCancel)
        #expect(lifecycle.hasStopped && !lifecycle.hasEnded && !lifecycle.isRunning)
        let ended = describe(lifecycle.processingEnded())
        let later = (lifecycle.stop(.stopped), lifecycle.finish())
        #expect(ended == "end failed: Boom() []")
        #expect(later == (.none, .none))
    }

    @Test func closingAnIdleInboxEndsAFinishingOrStoppingMachineAtOnce() {
        var finishing = Lifecycle()
        _ = finishing.finish()
        _ = finishing.awaitEnd(4)
        #expect(describe(finishing.inboxClosedIdle()) == "end finished [4]")
        #expect(describe(finishing) == "stopped finished")
        #expect(describe(finishing.inboxClosedIdle()) == "none", "it ends once")
        var stopping = Lifecycle()
        _ = stopping.stop(.stopped)
        #expect(describe(stopping.inboxClosedIdle()) == "end stopped []")
        var running = Lifecycle()
        #expect(describe(running.inboxClosedIdle()) == "none", "a running machine's inbox is never closed")
        #expect(running.isRunning)
    }
}
