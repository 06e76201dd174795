/// A machine's lifecycle as a pure state machine: one stage, and one input per thing that can
/// happen to it, each returning what the actor must do. It performs nothing itself, so it is
/// tested input by input without a machine.
///
/// ```
/// running ──shutDown()──► shuttingDown ──processing ends──► stopping(.shutDown) ──► stopped(.shutDown)
///  │  ▲
///  │  └───resume()───┐
///  └──pause()──► paused ──shutDown()──► stopping(.shutDown)
///
/// running, shuttingDown, paused ──stop(reason)──► stopping(reason) ──processing ends──► stopped(reason)
///
/// A machine shutting down or stopping whose inbox is closed while idle ends at once.
/// ```
///
/// `Waiter` is what callers of `finish()` and `run()` wait on (a continuation, in a machine).
@usableFromInline
struct MachineLifecycle<Waiter: Sendable>: Sendable {
    /// Where the machine is in its life.
    @usableFromInline
    enum Stage: Sendable {
        /// It takes events; `waiters` wait for its end (callers of `run()`).
        case running(waiters: [Waiter])
        /// It refuses new events and processes the queued ones; `waiters` wait for the end.
        case shuttingDown(waiters: [Waiter])
        /// It refuses new events and processes none: the queued ones, and its timers' events,
        /// wait for `resume()`; `waiters` wait for the end.
        case paused(waiters: [Waiter])
        /// It takes nothing: the event in progress completes, then the machine ends.
        case stopping(MachineTermination, waiters: [Waiter])
        /// It has ended: queued events got `.stopped`, streams finished, the parent was told.
        case stopped(MachineTermination)
    }

    @usableFromInline private(set) var stage = Stage.running(waiters: []) {
        didSet {
            phase = switch stage {
            case .running: .running
            case .shuttingDown: .shuttingDown
            case .paused: .paused
            case .stopping: .stopping
            case .stopped: .stopped
            }
        }
    }

    /// Which case `stage` is, without its payload: the questions below read this one byte, so
    /// that the hot path does not match an enum whose payloads hold references.
    @usableFromInline private(set) var phase = Phase.running

    /// The cases of ``Stage``, without payloads.
    @usableFromInline
    enum Phase: UInt8, Sendable { case running, shuttingDown, paused, stopping, stopped }

    @inlinable init() {}

    /// Whether the machine takes events.
    @inlinable var isRunning: Bool { phase == .running }

    /// Whether it is processing its queued events before it ends.
    @inlinable var isShuttingDown: Bool { phase == .shuttingDown }

    /// Whether it is paused.
    @inlinable var isPaused: Bool { phase == .paused }

    /// Whether it processes events: it is running or shutting down.
    @inlinable var isProcessing: Bool { phase.rawValue < Phase.paused.rawValue }

    /// Whether its timers' events still join its inbox: it is running or paused.
    @inlinable var takesTimerEvents: Bool { phase == .running || phase == .paused }

    /// Whether it has stopped taking anything: it is stopping or has ended.
    @inlinable var hasStopped: Bool { phase.rawValue >= Phase.stopping.rawValue }

    /// Whether it has ended.
    @inlinable var hasEnded: Bool { phase == .stopped }

    /// How it ended, once it has.
    var termination: MachineTermination? {
        if case .stopped(let reason) = stage { reason } else { nil }
    }

    // MARK: - Inputs

    /// What `finish()` requires.
    @usableFromInline
    enum ShutdownAction: Equatable {
        /// Close the inbox to new events; the machine ends once processing ends.
        case closeInbox
        /// Nothing to do: the machine is already shutting down. The caller waits for the end.
        case awaitEnd
        /// Nothing: the machine is stopping or has ended. The caller returns at once (the action
        /// in progress of a stopping machine may be waiting for it to go on).
        case none
    }

    /// `finish()` was called.
    @usableFromInline
    mutating func shutDown() -> ShutdownAction {
        switch stage {
        case .running(let waiters):
            stage = .shuttingDown(waiters: waiters)
            return .closeInbox
        case .shuttingDown:
            return .awaitEnd
        case .paused, .stopping, .stopped:
            return .none
        }
    }

    /// `pause()` was called.
    ///
    /// - Returns: whether the machine is paused now: `false` once it is shutting down or stopping.
    @usableFromInline
    mutating func pause() -> Bool {
        switch stage {
        case .running(let waiters):
            stage = .paused(waiters: waiters)
            return true
        case .paused:
            return true
        case .shuttingDown, .stopping, .stopped:
            return false
        }
    }

    /// `resume()` was called.
    ///
    /// - Returns: whether the machine was paused, and runs again now.
    @usableFromInline
    mutating func resume() -> Bool {
        guard case .paused(let waiters) = stage else { return false }
        stage = .running(waiters: waiters)
        return true
    }

    /// What `stop(_:)` requires.
    @usableFromInline
    enum StopAction: Equatable {
        /// Close the inbox to everything and cancel the actions in progress; the machine ends
        /// once processing ends.
        case closeInboxAndCancel
        /// Nothing: the machine is already stopping or has ended.
        case none
    }

    /// The machine must stop, for `reason`: `stop()`, a failure under the `.stop` policy, or
    /// the end of a `finish()`. Those waiting for a finish wait for this end instead.
    @usableFromInline
    mutating func stop(_ reason: MachineTermination) -> StopAction {
        switch stage {
        case .running(let waiters), .shuttingDown(let waiters), .paused(let waiters):
            stage = .stopping(reason, waiters: waiters)
        case .stopping, .stopped:
            return .none
        }
        return .closeInboxAndCancel
    }

    /// What the end of processing requires.
    @usableFromInline
    enum EndAction {
        /// Nothing: the machine is running, or has ended already.
        case none
        /// A machine shutting down has processed everything: stop it with `.shutDown` (close the
        /// inbox to everything), then end it.
        case stopShutDown
        /// End the machine: stop its queued events, tell its parent `reason`, finish its
        /// streams and resume `waiters`.
        case end(MachineTermination, waiters: [Waiter])
    }

    /// Nothing owns processing any more: the inbox is empty and no event is in progress.
    @usableFromInline
    mutating func processingEnded() -> EndAction {
        switch stage {
        case .running, .paused, .stopped:
            return .none
        case .shuttingDown:
            return .stopShutDown
        case .stopping(let reason, let waiters):
            stage = .stopped(reason)
            return .end(reason, waiters: waiters)
        }
    }

    /// The inbox was closed (after ``finish()`` or ``stop(_:)``) with nothing queued or in
    /// progress, and now takes nothing: a machine shutting down or stopping ends at once.
    @usableFromInline
    mutating func inboxClosedIdle() -> EndAction {
        switch stage {
        case .running, .paused, .stopped:
            return .none
        case .shuttingDown(let waiters):
            stage = .stopped(.shutDown)
            return .end(.shutDown, waiters: waiters)
        case .stopping(let reason, let waiters):
            stage = .stopped(reason)
            return .end(reason, waiters: waiters)
        }
    }

    /// A caller of `finish()` or `run()` waits for the end.
    ///
    /// - Returns: `false` if the machine has ended, so the caller must not wait; `true` if
    ///   `waiter` is kept, to be returned by the input that ends it.
    @usableFromInline
    mutating func awaitEnd(_ waiter: Waiter) -> Bool {
        switch stage {
        case .stopped:
            return false
        case .running(var waiters):
            waiters.append(waiter)
            stage = .running(waiters: waiters)
        case .shuttingDown(var waiters):
            waiters.append(waiter)
            stage = .shuttingDown(waiters: waiters)
        case .paused(var waiters):
            waiters.append(waiter)
            stage = .paused(waiters: waiters)
        case .stopping(let reason, var waiters):
            waiters.append(waiter)
            stage = .stopping(reason, waiters: waiters)
        }
        return true
    }
}
