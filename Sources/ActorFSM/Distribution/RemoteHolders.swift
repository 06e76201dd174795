/// The machines a durable supervisor lately found held by another live process: its sends and
/// posts to them are forwarded at once, without first trying to claim the machine.
///
/// What it remembers may be out of date, and that is safe: a forwarded event is processed by
/// whichever process holds the machine when the event is read, or claims it then. Remembering
/// only saves a claim, which would wait for the holder's commit on the lease row.
final class RemoteHolders: Sendable {
    private let keys = Locked(Set<String>())

    /// How many machines it remembers; past this it forgets them all and learns again.
    static var capacity: Int { 100_000 }

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
    }

    /// Forgets `machines`: this process holds them now.
    func forget(_ machines: [String]) {
        keys.withLock { keys in
            for machine in machines { keys.remove(machine) }
        }
    }
}
