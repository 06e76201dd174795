/// An asynchronous operation that runs while its machine is in one state: started when the
/// machine enters the state (after the entry actions), cancelled when it leaves.
///
/// Its result, or its error, comes back to the machine as an event, through the inbox like any
/// other, with origin ``EventOrigin/stateTask``. A result that arrives after the machine left the
/// state is ignored, and leaving the state cancels the task, so a cooperative operation stops
/// early.
///
/// ```swift
/// define(.loading, running: StateTask {
///     .loaded(try await catalogue.page(3))
/// } onError: { error in
///     .failed("\(error)")
/// }) {
///     when(.loaded) | then(.showing)
///     when(.failed) | then(.showingError)
/// }
/// ```
public struct StateTask<Definition: MachineDefinition>: Sendable {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    @usableFromInline let operation: @Sendable (StateTaskContext<Definition>) async -> Event?
    let location: SourceLocation
    /// How the task starts a child machine, if it is one (see ``child(in:id:data:cancelling:done:failed:fileID:line:)``):
    /// then `operation` is not run.
    @usableFromInline let child: ChildLauncher<Definition>?

    /// A task running `operation`, which returns the event to post, or `nil` for none.
    init(at location: SourceLocation, _ operation: @escaping @Sendable (StateTaskContext<Definition>) async -> Event?) {
        self.operation = operation
        self.location = location
        self.child = nil
    }

    /// A task that starts a child machine through `child`.
    @usableFromInline init(at location: SourceLocation, child: ChildLauncher<Definition>) {
        self.operation = { _ in nil }
        self.location = location
        self.child = child
    }

    /// A task whose operation cannot fail; its result is posted as an event.
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ operation: @escaping @Sendable () async -> Event
    ) {
        self.init(at: SourceLocation(fileID, line)) { _ in await operation() }
    }

    /// A task whose operation reads its context (the machine's id and data, the state) and
    /// cannot fail; its result is posted as an event.
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ operation: @escaping @Sendable (StateTaskContext<Definition>) async -> Event
    ) {
        self.init(at: SourceLocation(fileID, line)) { context in await operation(context) }
    }

    /// A task whose operation may throw: its result is posted as an event, and so is
    /// `onError(error)` when it fails (`nil` posts nothing). Once the task is cancelled, because
    /// its state was left or the machine stopped, an error is not reported: its event would be
    /// stale (this covers the `CancellationError` a cooperative operation throws).
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ operation: @escaping @Sendable () async throws -> Event,
        onError: @escaping @Sendable (any Error) -> Event?
    ) {
        self.init(at: SourceLocation(fileID, line)) { _ in
            do { return try await operation() } catch { return Task.isCancelled ? nil : onError(error) }
        }
    }

    /// A task whose operation reads its context (the machine's id and data, the state) and may
    /// throw.
    public init(
        fileID: StaticString = #fileID, line: UInt = #line,
        _ operation: @escaping @Sendable (StateTaskContext<Definition>) async throws -> Event,
        onError: @escaping @Sendable (any Error) -> Event?
    ) {
        self.init(at: SourceLocation(fileID, line)) { context in
            do { return try await operation(context) } catch { return Task.isCancelled ? nil : onError(error) }
        }
    }
}

/// What a ``StateTask`` is told when it starts.
public struct StateTaskContext<Definition: MachineDefinition>: Sendable {
    /// The state the task belongs to.
    public let state: Definition.State
    /// The id of the machine running the task.
    public let id: Definition.ID
    /// The machine's data when the task started: as the transition into the state left it.
    public let data: Definition.Data

    @usableFromInline init(state: Definition.State, id: Definition.ID, data: Definition.Data) {
        self.state = state
        self.id = id
        self.data = data
    }
}
