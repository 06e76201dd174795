// `update { … }`: a transition's change to the machine's data, written as a pure function of the
// data and the event, so the common case needs no action that takes the context.

/// Changes the machine's data when the transition fires, in order with its other actions.
///
/// ```swift
/// when(.next) | then(.loading) | update { $0.page += 1 }
/// ```
///
/// The change runs as a synchronous action: it is kept when the transition completes and undone
/// if an action of the transition throws (see ``TransitionContext/data``).
public func update<Definition: MachineDefinition>(
    _ change: @escaping @Sendable (inout Definition.Data) -> Void
) -> Actions<Definition> {
    Actions { (context: TransitionContext<Definition>) in context.updateData(change) }
}

/// Changes the machine's data from the event that fired the transition: a reducer.
///
/// ```swift
/// when(.loaded) | then(.showing) | update { (screen: inout Catalogue, event: CatalogueEvent) in
///     if case .loaded(let items) = event { screen.items = items }
/// }
/// ```
///
/// A schema refuses it on a transition a state timeout can trigger, which has no event.
public func update<Definition: MachineDefinition>(
    _ change: @escaping @Sendable (inout Definition.Data, Definition.Event) -> Void
) -> Actions<Definition> {
    Actions(bodies: [.context { context in
        let event = try context.requireEvent()
        context.updateData { change(&$0, event) }
    }], readsEvent: true)
}
