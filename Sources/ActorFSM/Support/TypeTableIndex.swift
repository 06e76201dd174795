import Synchronization

/// An append-only map from a type's identifier to a table of 16-bit values (a predicate type's
/// ordinals by byte, see `CaseOrdinals`), read without a lock: the one lock-free structure in
/// the package.
///
/// Readers load the current slots with acquiring ordering and probe them. A writer, holding
/// the lock, stores a slot's table before publishing its key with releasing ordering, so a
/// reader that sees a key also sees the table stored before it. When a key would fill more
/// than half the slots, the writer copies them into twice as many, fills those completely,
/// and only then publishes them. Nothing is ever freed: a reader may still be probing older
/// slots, and a table lives as long as the program (there is one per predicate type, and
/// the slots left behind add up to less than the current ones).
@usableFromInline
enum TypeTableIndex {
    /// Serializes writers; counts the keys. A `Locked` rather than a `Mutex`: ThreadSanitizer
    /// cannot follow the Linux `Mutex`'s hand-over under contention (see `Locked`).
    private static let writer = Locked<Int>(0)

    /// A power-of-two number of slots, each a key (0 when empty) and the table stored under it.
    @usableFromInline
    struct Slots {
        @usableFromInline let mask: Int
        @usableFromInline let keys: UnsafeMutablePointer<Atomic<UInt>>
        @usableFromInline let tables: UnsafeMutablePointer<UnsafePointer<Int16>?>
    }

    /// The table registered under `key`, if there is one.
    @inlinable @inline(__always)
    static func table(for key: UInt) -> UnsafePointer<Int16>? {
        guard let slots = UnsafePointer<Slots>(bitPattern: typeTableSlots.load(ordering: .acquiring)) else { return nil }
        let mask = slots.pointee.mask
        var position = Self.hash(key) & mask
        // Ends: at most half the slots hold a key.
        while true {
            let found = slots.pointee.keys[position].load(ordering: .acquiring)
            if found == key { return slots.pointee.tables[position] }
            if found == 0 { return nil }
            position = (position &+ 1) & mask
        }
    }

    /// Fibonacci hashing: the product's high bits mix all of the identifier's bits.
    @inlinable @inline(__always)
    static func hash(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }

    /// Registers the table `make` builds under `key`, unless a table is there already, and
    /// returns the one registered. `make` runs without the lock held, since it runs user code.
    static func insert(_ key: UInt, _ make: () -> [Int16]) -> UnsafePointer<Int16> {
        precondition(key != 0, "a type's identifier is never 0")
        if let existing = table(for: key) { return existing }
        let values = make()
        return writer.withLock { (count: inout Int) -> UnsafePointer<Int16> in
            if let existing = table(for: key) { return existing }
            let table = UnsafeMutablePointer<Int16>.allocate(capacity: values.count)
            table.initialize(from: values, count: values.count)
            let old = UnsafePointer<Slots>(bitPattern: typeTableSlots.load(ordering: .relaxed))
            let capacity = old.map { $0.pointee.mask + 1 } ?? 0
            if (count + 1) * 2 > capacity {
                // Filled before it is published, so plain stores would do; `store` is used
                // for uniformity with later inserts.
                let grown = Self.makeSlots(capacity: Swift.max(16, capacity * 2))
                if let old {
                    for position in 0..<capacity {
                        let oldKey = old.pointee.keys[position].load(ordering: .relaxed)
                        if oldKey != 0 { Self.place(oldKey, old.pointee.tables[position]!, in: grown) }
                    }
                }
                Self.place(key, table, in: grown)
                typeTableSlots.store(UInt(bitPattern: grown), ordering: .releasing)
            } else if let old {
                Self.place(key, table, in: old)
            }
            count += 1
            return UnsafePointer(table)
        }
    }

    /// Empty slots, `capacity` of them (a power of two).
    private static func makeSlots(capacity: Int) -> UnsafePointer<Slots> {
        let keys = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity)
        for position in 0..<capacity { (keys + position).initialize(to: Atomic(0)) }
        let tables = UnsafeMutablePointer<UnsafePointer<Int16>?>.allocate(capacity: capacity)
        tables.initialize(repeating: nil, count: capacity)
        let slots = UnsafeMutablePointer<Slots>.allocate(capacity: 1)
        slots.initialize(to: Slots(mask: capacity - 1, keys: keys, tables: tables))
        return UnsafePointer(slots)
    }

    /// Stores `table` in the first free slot from `key`'s hash on, then publishes `key`.
    private static func place(_ key: UInt, _ table: UnsafePointer<Int16>, in slots: UnsafePointer<Slots>) {
        let mask = slots.pointee.mask
        var position = hash(key) & mask
        while slots.pointee.keys[position].load(ordering: .relaxed) != 0 { position = (position &+ 1) & mask }
        slots.pointee.tables[position] = table
        slots.pointee.keys[position].store(key, ordering: .releasing)
    }
}

/// The address of ``TypeTableIndex``'s current slots. A global initialised to a constant
/// rather than a static member, so that reading it takes no lazy-initialisation check.
@usableFromInline let typeTableSlots = Atomic<UInt>(0)
