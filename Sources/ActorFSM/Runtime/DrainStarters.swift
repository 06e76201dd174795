/// Starts the drain of a machine of one definition, and the timers of its initial state, from
/// code specialized for its types.
///
/// It is made in a public initializer that is inlined into the caller's module, where the
/// definition's types are concrete, so the drain it starts runs specialized code. Library code
/// that is not specialized (a timer's event, a child's end, a forwarded event, a state task's
/// result) starts a drain through it rather than starting one of its own, which would run the
/// drain's generic code and look up the metadata of its types on every event.
@usableFromInline
package final class DrainStarter<Definition: MachineDefinition>: Sendable {
    @usableFromInline let start: @Sendable (Machine<Definition>) -> Void
    /// Starts the initial state's timeouts and tasks, whose deadlines `init` fixed, on the actor.
    @usableFromInline let startInitialState: @Sendable (Machine<Definition>, [(Alarm, Duration)]) -> Void

    @inlinable init() {
        start = { machine in Task.detached { await machine.drain() } }
        startInitialState = { machine, alarms in Task { await machine.armInitialState(alarms) } }
    }
}

/// The drain starters made so far, one per definition type.
@usableFromInline
package enum DrainStarters {
    /// A `Locked` (a pthread mutex), which ThreadSanitizer follows, rather than a `Mutex`.
    @usableFromInline static let made = Locked<[ObjectIdentifier: any AnyObject & Sendable]>([:])

    /// Makes the starter of `Definition`'s machines, if none is made yet: called where the
    /// definition's types are concrete.
    @inlinable
    package static func register<Definition: MachineDefinition>(_ definition: Definition.Type) {
        let key = ObjectIdentifier(definition)
        if made.withLock({ $0[key] != nil }) { return }
        let starter = DrainStarter<Definition>()
        made.withLock { made in if made[key] == nil { made[key] = starter } }
    }

    /// The starter of `Definition`'s machines, if one was made.
    @usableFromInline
    package static func starter<Definition: MachineDefinition>(for definition: Definition.Type) -> DrainStarter<Definition>? {
        guard let starter = made.withLock({ $0[ObjectIdentifier(definition)] }) else { return nil }
        // The key is the definition's type, and only a starter of that type is stored under it.
        return unsafeDowncast(starter, to: DrainStarter<Definition>.self)
    }
}
