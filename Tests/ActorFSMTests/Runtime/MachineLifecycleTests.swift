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
        case .shuttingDown(let waiters): "shutting down \(waiters)"
        case .paused(let waiters): "paused \(waiters)"
        case .stopping(let reason, let waiters): "stopping \(reason) \(waiters)"
        case .stopped(let reason): "stopped \(reason)"
        }
    }

    private func describe(_ action: Lifecycle.EndAction) -> String {
        switch action {
        case .none: "none"
        case .stopShutDown: "stop shut down"
        case .end(let reason, let waiters): "end \(reason) \(waiters)"
        }
    }

    @Test func aRunningMachineTakesEventsAndHasNothingToEnd() {
        var lifecycle = Lifecycle()
        #expect(lifecycle.isRunning && !lifecycle.isShuttingDown && !lifecycle.hasStopped && !lifecycle.hasEnded)
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
        let shutdown = lifecycle.shutDown()
        #expect(shutdown == .closeInbox)
        #expect(describe(lifecycle) == "shutting down [1]", "the waiter carries over to the shutdown")
        _ = lifecycle.stop(.stopped)
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "end stopped [1]")
        #expect(lifecycle.termination.map { "\($0)" } == "stopped")
    }

    @Test func shuttingDownClosesTheInboxOnceAndEndsAfterProcessing() {
        var lifecycle = Lifecycle()
        let first = lifecycle.shutDown()
        let second = lifecycle.shutDown()
        #expect(first == .closeInbox && second == .awaitEnd)
        #expect(lifecycle.isShuttingDown && !lifecycle.isRunning && !lifecycle.hasStopped)
        let waits = (lifecycle.awaitEnd(1), lifecycle.awaitEnd(2))
        #expect(waits == (true, true))
        // Processing ends: the machine must stop as shut down, which keeps the waiters.
        let drained = describe(lifecycle.processingEnded())
        #expect(drained == "stop shut down")
        let stop = lifecycle.stop(.shutDown)
        #expect(stop == .closeInboxAndCancel)
        #expect(describe(lifecycle) == "stopping shut down [1, 2]")
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "end shut down [1, 2]")
        #expect(lifecycle.hasEnded && lifecycle.hasStopped)
        let late = lifecycle.awaitEnd(3)
        let again = describe(lifecycle.processingEnded())
        #expect(!late, "an ended machine is not waited for")
        #expect(again == "none", "it ends once")
    }

    @Test func stoppingTakesOverAFinishAndItsWaiters() {
        var lifecycle = Lifecycle()
        _ = lifecycle.shutDown()
        _ = lifecycle.awaitEnd(7)
        let stop = lifecycle.stop(.stopped)
        let secondStop = lifecycle.stop(.shutDown)
        let shutdown = lifecycle.shutDown()
        let waits = lifecycle.awaitEnd(8)
        #expect(stop == .closeInboxAndCancel)
        #expect(secondStop == .none, "the first reason stands")
        #expect(shutdown == .none && waits)
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
        let later = (lifecycle.stop(.stopped), lifecycle.shutDown())
        #expect(ended == "end failed: Boom() []")
        #expect(later == (.none, .none))
    }

    @Test func closingAnIdleInboxEndsAFinishingOrStoppingMachineAtOnce() {
        var shuttingDown = Lifecycle()
        _ = shuttingDown.shutDown()
        _ = shuttingDown.awaitEnd(4)
        #expect(describe(shuttingDown.inboxClosedIdle()) == "end shut down [4]")
        #expect(describe(shuttingDown) == "stopped shut down")
        #expect(describe(shuttingDown.inboxClosedIdle()) == "none", "it ends once")
        var stopping = Lifecycle()
        _ = stopping.stop(.stopped)
        #expect(describe(stopping.inboxClosedIdle()) == "end stopped []")
        var running = Lifecycle()
        #expect(describe(running.inboxClosedIdle()) == "none", "a running machine's inbox is never closed")
        #expect(running.isRunning)
    }

    @Test func aPausedMachineKeepsItsWaitersTakesTimerEventsAndProcessesNothing() {
        var lifecycle = Lifecycle()
        _ = lifecycle.awaitEnd(1)
        let paused = (lifecycle.pause(), lifecycle.pause())
        #expect(paused == (true, true), "pausing a paused machine is no error")
        #expect(describe(lifecycle) == "paused [1]")
        #expect(lifecycle.isPaused && !lifecycle.isRunning && !lifecycle.isProcessing && !lifecycle.hasStopped)
        #expect(lifecycle.takesTimerEvents)
        let ended = describe(lifecycle.processingEnded())
        #expect(ended == "none", "its drain letting go ends nothing")
        let shutdown = lifecycle.shutDown()
        #expect(shutdown == .none, "the core stops a paused machine instead")
        _ = lifecycle.awaitEnd(2)
        let resumed = (lifecycle.resume(), lifecycle.resume())
        #expect(resumed == (true, false), "a running machine is not resumed")
        #expect(describe(lifecycle) == "running [1, 2]")
        #expect(lifecycle.isProcessing && lifecycle.takesTimerEvents)
    }

    @Test func aPausedMachineStopsAndOnlyARunningOneIsPaused() {
        var paused = Lifecycle()
        _ = paused.pause()
        _ = paused.awaitEnd(1)
        let stop = paused.stop(.stopped)
        #expect(stop == .closeInboxAndCancel)
        #expect(describe(paused) == "stopping stopped [1]")
        let again = (paused.pause(), paused.resume())
        #expect(again == (false, false) && !paused.takesTimerEvents)
        var ending = Lifecycle()
        _ = ending.shutDown()
        let pausedWhileEnding = ending.pause()
        #expect(!pausedWhileEnding, "a machine shutting down is not paused")
    }
}
