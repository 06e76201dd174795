/// An ordered list of actions, run one after the other during a transition.
///
/// Actions are `@Sendable` closures that may be synchronous or `async`, may throw, and take
/// nothing, the event, or a ``TransitionContext``. Lists are written as array literals of
/// synchronous actions, or joined with `&` (which also takes asynchronous ones):
///
/// ```swift
/// define(.alarming, onEntry: [alarmOn], onExit: [alarmOff]) {
///     when(.reset) | then(.locked) | alarmOff & lock
///     when(.coin)  | then(.unlocked) | Actions { context in audit(context.eventDescription) }
/// }
/// ```
///
/// Synchronous actions are kept synchronous, so a machine runs them without a suspension point.
public struct Actions<Definition: MachineDefinition>: Sendable, ExpressibleByArrayLiteral {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    /// One action, kept in the shape it was written in: a synchronous action that takes nothing
    /// or the event is called as it is, without a wrapping closure or a context to build.
    @usableFromInline
    enum Body: Sendable {
        case plain(@Sendable () throws -> Void)
        case event(@Sendable (Event) throws -> Void)
        case context(@Sendable (TransitionContext<Definition>) throws -> Void)
        case asynchronous(@Sendable (TransitionContext<Definition>) async throws -> Void)
        /// An asynchronous action tried again under a policy when it throws.
        case retried(RetryPolicy, @Sendable (TransitionContext<Definition>) async throws -> Void)
    }

    @usableFromInline let bodies: [Body]
    /// Whether every action is synchronous, kept so that the hot path need not scan.
    @usableFromInline let allSynchronous: Bool
    /// Whether an action takes the event itself, which a state timeout cannot give it.
    @usableFromInline let readsEvent: Bool
    /// Whether an action takes the ``TransitionContext`` (every asynchronous one does): without
    /// one, a machine builds no context.
    @usableFromInline let readsContext: Bool

    @inlinable
    init(bodies: [Body], readsEvent: Bool = false) {
        self.bodies = bodies
        var allSynchronous = true
        var readsContext = false
        for body in bodies {
            switch body {
            case .plain, .event: break
            case .context: readsContext = true
            case .asynchronous, .retried: allSynchronous = false; readsContext = true
            }
        }
        self.allSynchronous = allSynchronous
        self.readsContext = readsContext
        self.readsEvent = readsEvent
    }

    /// No actions.
    @inlinable
    public init() { self.init(bodies: []) }

    /// A list of synchronous actions that take no argument, in the order written.
    ///
    /// The elements are synchronous so that the list stays synchronous. Join asynchronous actions
    /// with `&` instead, or wrap them: `onEntry: Actions(notify)`.
    public init(arrayLiteral elements: (@Sendable () throws -> Void)...) {
        self.init(bodies: elements.map(Body.plain))
    }

    /// A synchronous action that takes no argument.
    public init(_ action: @escaping @Sendable () throws -> Void) {
        self.init(bodies: [.plain(action)])
    }

    /// An asynchronous action that takes no argument.
    public init(_ action: @escaping @Sendable () async throws -> Void) {
        self.init(bodies: [.asynchronous { _ in try await action() }])
    }

    /// A synchronous action that receives the event.
    ///
    /// A schema refuses it on a transition a state timeout can trigger, which has no event.
    @_disfavoredOverload
    public init(_ action: @escaping @Sendable (Event) throws -> Void) {
        self.init(bodies: [.event(action)], readsEvent: true)
    }

    /// An asynchronous action that receives the event.
    ///
    /// A schema refuses it on a transition a state timeout can trigger, which has no event.
    @_disfavoredOverload
    public init(_ action: @escaping @Sendable (Event) async throws -> Void) {
        self.init(bodies: [.asynchronous { try await action(try $0.requireEvent()) }], readsEvent: true)
    }

    /// A synchronous action that receives the transition context.
    public init(_ action: @escaping @Sendable (TransitionContext<Definition>) throws -> Void) {
        self.init(bodies: [.context(action)])
    }

    /// An asynchronous action that receives the transition context.
    public init(_ action: @escaping @Sendable (TransitionContext<Definition>) async throws -> Void) {
        self.init(bodies: [.asynchronous(action)])
    }

    /// The number of actions in the list.
    @inlinable public var count: Int { bodies.count }

    /// Whether every action in the list is synchronous.
    @inlinable public var isSynchronous: Bool { allSynchronous }

    /// Runs the actions in order; the first error stops the list and is rethrown.
    public func run(in context: TransitionContext<Definition>) async throws {
        var completed = 0
        try await run(in: context, counting: &completed)
    }

    /// Runs the actions in order without suspending.
    ///
    /// - Returns: `false`, having run nothing, if any action is asynchronous.
    /// - Throws: the first error an action throws; later actions do not run.
    public func runSynchronously(in context: TransitionContext<Definition>) throws -> Bool {
        guard isSynchronous else { return false }
        var completed = 0
        try runSynchronously(in: context, counting: &completed)
        return true
    }

    /// Runs synchronous actions in order, counting those that complete.
    @inlinable
    func runSynchronously(in context: TransitionContext<Definition>, counting completed: inout Int) throws {
        for body in bodies {
            switch body {
            case .plain(let action): try action()
            case .event(let action): try action(try context.requireEvent())
            case .context(let action): try action(context)
            case .asynchronous, .retried: continue
            }
            completed += 1
        }
    }

    /// Runs the actions in order, counting those that complete.
    func run(in context: TransitionContext<Definition>, counting completed: inout Int) async throws {
        for body in bodies {
            switch body {
            case .plain(let action): try action()
            case .event(let action): try action(try context.requireEvent())
            case .context(let action): try action(context)
            case .asynchronous(let action): try await action(context)
            case .retried(let policy, let action): try await context.run(action, retrying: policy)
            }
            completed += 1
        }
    }

    /// The same actions, each asynchronous one (and each synchronous one that takes the context)
    /// tried again under `policy` when it throws; an action that has a policy keeps it.
    func retrying(_ policy: RetryPolicy) -> Actions {
        Actions(bodies: bodies.map { body in
            switch body {
            case .plain, .event, .retried: body
            case .context(let action): .retried(policy, { try action($0) })
            case .asynchronous(let action): .retried(policy, action)
            }
        }, readsEvent: readsEvent)
    }

    /// The actions of `lhs`, then those of `rhs`.
    public static func & (lhs: Actions, rhs: Actions) -> Actions {
        Actions(bodies: lhs.bodies + rhs.bodies, readsEvent: lhs.readsEvent || rhs.readsEvent)
    }

    /// Appends a synchronous action that takes no argument.
    public static func & (lhs: Actions, rhs: @escaping @Sendable () throws -> Void) -> Actions {
        lhs & Actions(rhs)
    }

    /// Appends an asynchronous action that takes no argument.
    public static func & (lhs: Actions, rhs: @escaping @Sendable () async throws -> Void) -> Actions {
        lhs & Actions(rhs)
    }
}

/// Joins two synchronous actions that take no argument: `alarmOff & lock`.
public func & <Definition: MachineDefinition>(
    lhs: @escaping @Sendable () throws -> Void, rhs: @escaping @Sendable () throws -> Void
) -> Actions<Definition> {
    Actions(lhs) & Actions(rhs)
}

/// Joins two actions that take no argument, at least one of them asynchronous.
public func & <Definition: MachineDefinition>(
    lhs: @escaping @Sendable () async throws -> Void, rhs: @escaping @Sendable () async throws -> Void
) -> Actions<Definition> {
    Actions(lhs) & Actions(rhs)
}
