// Retry policies in the DSL: on one action, or on every action of the statements in a block.

/// An asynchronous action tried again under `policy` when it throws: each attempt waits on the
/// machine's clock, starts from the data as the action found it (events a failed attempt
/// posted stay posted), and keeps the event's ``TransitionContext/idempotencyKey``; ``TransitionContext/attempt`` counts them. Once the
/// policy is exhausted, or `unless` returns `true` for the error, the action fails with its last
/// error and the machine's failure policy applies. A durable machine records each wait, so a
/// crash does not start the count over.
///
/// ```swift
/// when(.submit) | then(.paymentPending) | retry(.exponential(initial: .milliseconds(100), maximum: .seconds(5), attempts: 5)) { context in
///     try await payments.charge(order: context.id, idempotencyKey: context.idempotencyKey)
/// }
/// ```
///
/// The record of the transition says how many attempts it took (``TransitionRecord/attempts``).
/// The machine processes no other event meanwhile: the transition is still running.
public func retry<Definition: MachineDefinition>(
    _ policy: RetryPolicy, unless excluded: (@Sendable (any Error) -> Bool)? = nil,
    _ action: @escaping @Sendable (TransitionContext<Definition>) async throws -> Void
) -> Actions<Definition> {
    Actions(action).retrying(excluded.map(policy.unless) ?? policy)
}

/// Every asynchronous action of the statements inside, and every synchronous one that takes the
/// context, is tried again under `policy` when it throws, as ``retry(_:unless:_:)`` does for one
/// action. Actions that take nothing or only the event are not retried.
///
/// ```swift
/// retry(.fixed(.seconds(1), attempts: 3)) {
///     when(.paid) | then(.delivered) | { context in try await warehouse.ship(order: context.id) }
/// }
/// ```
public func retry<Definition: MachineDefinition, Shape>(
    _ policy: RetryPolicy, unless excluded: (@Sendable (any Error) -> Bool)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> rows: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    let retrying = excluded.map(policy.unless) ?? policy
    let block = rows().reportingEmptiness(at: SourceLocation(fileID, line))
    var fragments = block.fragments
    for index in fragments.indices { fragments[index].actions = fragments[index].actions.retrying(retrying) }
    return Syntax.Block(fragments: fragments, emptyBlockLocations: block.emptyBlockLocations)
}
