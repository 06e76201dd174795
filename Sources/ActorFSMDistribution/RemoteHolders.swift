import ActorFSM
import ActorFSMDurability

import Synchronization

/// The machines a durable supervisor lately found held by another live process: its sends and
/// posts to them are forwarded at once, without first trying to claim the machine.
///
/// What it remembers may be out of date, and that is safe: a forwarded event is processed by
/// whichever process holds the machine when the event is read, or claims it then. Remembering
/// only saves a claim, which would wait for the holder's commit on the lease row.
final class RemoteHolders: Sendable {
    private let keys = Locked(Set<String>())
    /// Whether it remembers any machine, readable without the lock: a supervisor whose store
    /// does not forward never remembers one, and its sends pay one atomic load for this.
    private let isEmpty = Atomic<Bool>(true)

    /// How many machines it remembers; past this it forgets them all and learns again.
    static var capacity: Int { 100_000 }

    /// Whether it remembers no machine at all.
    var remembersNone: Bool { isEmpty.load(ordering: .relaxed) }

    /// Whether another process held the machine `key` when this one last tried to claim it.
    func holdsElsewhere(_ key: String) -> Bool {
        keys.withLock { $0.contains(key) }
    }

    /// Remembers that another process holds the machine `key`.
    func remember(_ key: String) {
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
            keys.insert(key)
        }
        isEmpty.store(false, ordering: .relaxed)
    }

    /// Forgets `machines`: this process holds them now.
    func forget(_ machines: [String]) {
        guard !remembersNone else { return }
        keys.withLock { keys in
            for machine in machines { keys.remove(machine) }
        }
    }
}
