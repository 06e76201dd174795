/// A first-in, first-out queue on a growable ring buffer: O(1) amortised append and removal at
/// both ends, no allocation while the count stays within the capacity already reached, and none
/// at all while empty.
///
/// Elements are moved in and out of raw storage, never copied, so a queue of large generic
/// values costs no reference counting or value-witness calls per element.
@usableFromInline
package struct RingBuffer<Element> {
    @usableFromInline
    struct Header {
        @usableFromInline var head: Int
        @usableFromInline var count: Int
        /// The slots allocated (`ManagedBuffer.capacity` asks the allocator on every read).
        @usableFromInline let capacity: Int

        @inlinable init(head: Int, count: Int, capacity: Int) {
            self.head = head
            self.count = count
            self.capacity = capacity
        }
    }

    /// The elements at `head ..< head + count`, modulo the capacity; the other slots are
    /// uninitialised.
    @usableFromInline
    final class Storage: ManagedBuffer<Header, Element> {
        /// The header's figures, read through its pointer: `header`, a class property, costs a
        /// run-time exclusivity check on every access.
        @inlinable var filled: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
        @inlinable var slots: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

        deinit {
            withUnsafeMutablePointers { header, elements in
                let slots = header.pointee.capacity
                for offset in 0..<header.pointee.count {
                    (elements + (header.pointee.head + offset) % slots).deinitialize(count: 1)
                }
            }
        }
    }

    @usableFromInline var storage: Storage?

    @inlinable init() {}

    @inlinable var count: Int { storage?.filled ?? 0 }

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable
    mutating func append(_ element: consuming Element) {
        if storage == nil || storage!.filled == storage!.slots || !isKnownUniquelyReferenced(&storage!) {
            grow()
        }
        // Moved in, not copied: the closure cannot consume a parameter it captures, so the
        // element travels in an optional it takes out of.
        var pending = Optional(element)
        storage!.withUnsafeMutablePointers { header, elements in
            (elements + (header.pointee.head + header.pointee.count) % header.pointee.capacity)
                .initialize(to: pending.take()!)
            header.pointee.count += 1
        }
    }

    @inlinable var first: Element? {
        guard let storage, storage.filled > 0 else { return nil }
        return storage.withUnsafeMutablePointers { header, elements in elements[header.pointee.head] }
    }

    @inlinable
    mutating func popFirst() -> Element? {
        guard storage != nil, storage!.filled > 0 else { return nil }
        if !isKnownUniquelyReferenced(&storage!) { grow() }
        let (element, emptiedLarge) = storage!.withUnsafeMutablePointers { header, elements in
            let element = (elements + header.pointee.head).move()
            header.pointee.head = (header.pointee.head + 1) % header.pointee.capacity
            header.pointee.count -= 1
            return (element, header.pointee.count == 0 && header.pointee.capacity > 64)
        }
        // Give back a buffer that a burst grew, so an idle owner stays small.
        if emptiedLarge { storage = nil }
        return element
    }

    /// Moves every element to the back of `target`, in order, leaving this queue empty.
    @inlinable
    mutating func moveAll(into target: inout RingBuffer) {
        _ = moveFront(into: &target, limit: .max, endingAfter: { _ in false })
    }

    /// Moves elements from the front of this queue to the back of `target`: at most `limit`,
    /// none after the first one for which `isLast` is true, and none from the first one after
    /// the front for which `isFirst` is true. Returns how many moved.
    ///
    /// Elements are moved as raw memory, in at most two runs of contiguous slots each way, so
    /// handing a batch over (under the inbox's lock) costs a scan and a memory copy.
    @inlinable
    mutating func moveFront(
        into target: inout RingBuffer, limit: Int,
        endingBefore isFirst: (UnsafeMutablePointer<Element>) -> Bool = { _ in false },
        endingAfter isLast: (UnsafeMutablePointer<Element>) -> Bool
    ) -> Int {
        guard storage != nil, storage!.filled > 0, limit > 0 else { return 0 }
        if !isKnownUniquelyReferenced(&storage!) { grow() }
        let (moving, emptiedLarge) = storage!.withUnsafeMutablePointers { header, elements in
            // How many: scan from the head, in the run up to the end of the slots, then from 0.
            let capacity = header.pointee.capacity
            let head = header.pointee.head
            let available = Swift.min(limit, header.pointee.count)
            var moving = 0
            while moving < available {
                let slot = head + moving < capacity ? head + moving : head + moving - capacity
                if moving > 0 && isFirst(elements + slot) { break }
                moving += 1
                if isLast(elements + slot) { break }
            }
            return (moving, header.pointee.count == moving && capacity > 64)
        }
        target.reserveCapacity(target.count + moving)
        storage!.withUnsafeMutablePointers { header, elements in
            target.storage!.withUnsafeMutablePointers { targetHeader, targetElements in
                if targetHeader.pointee.count == 0 { targetHeader.pointee.head = 0 }
                var moved = 0
                while moved < moving {
                    // The longest run that is contiguous in both buffers.
                    let source = header.pointee.head
                    let end = (targetHeader.pointee.head + targetHeader.pointee.count) % targetHeader.pointee.capacity
                    let run = Swift.min(moving - moved, header.pointee.capacity - source,
                                        targetHeader.pointee.capacity - end)
                    (targetElements + end).moveInitialize(from: elements + source, count: run)
                    targetHeader.pointee.count += run
                    header.pointee.head = (source + run) % header.pointee.capacity
                    header.pointee.count -= run
                    moved += run
                }
            }
        }
        if emptiedLarge { storage = nil }
        return moving
    }

    /// Makes the storage unique and able to hold `minimumCapacity` elements.
    @inlinable
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        if storage == nil || storage!.slots < minimumCapacity || !isKnownUniquelyReferenced(&storage!) {
            grow(minimumCapacity: minimumCapacity)
        }
    }

    /// Removes and returns the first element that satisfies `predicate`, keeping the order of the rest.
    @usableFromInline
    mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        var kept: [Element] = []
        var removed: Element?
        while let element = popFirst() {
            if removed == nil && predicate(element) {
                removed = element
            } else {
                kept.append(element)
            }
        }
        for element in kept { append(element) }
        return removed
    }

    /// Calls `body` on every element, in order, without removing or copying any.
    @usableFromInline
    func forEach(_ body: (borrowing Element) -> Void) {
        storage?.withUnsafeMutablePointers { header, elements in
            for offset in 0..<header.pointee.count {
                body((elements + (header.pointee.head + offset) % header.pointee.capacity).pointee)
            }
        }
    }

    /// Removes every element, in order.
    @inlinable
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        while let element = popFirst() { all.append(element) }
        return all
    }

    /// Moves the elements into a buffer twice as large (or a copy of the same size, if the
    /// buffer is shared), or of `minimumCapacity` if that is larger, head first.
    @inlinable
    mutating func grow(minimumCapacity: Int = 0) {
        let count = self.count
        let full = storage.map { count == $0.slots } ?? true
        let capacity = Swift.max(8, full ? count * 2 : storage!.slots, minimumCapacity)
        let grown = unsafeDowncast(
            Storage.create(minimumCapacity: capacity) { _ in Header(head: 0, count: count, capacity: capacity) },
            to: Storage.self)
        // Asked before `old` takes a second reference, which would make every buffer look shared.
        let unique = storage != nil && isKnownUniquelyReferenced(&storage!)
        if let old = storage {
            old.withUnsafeMutablePointers { header, elements in
                grown.withUnsafeMutablePointers { _, target in
                    for offset in 0..<count {
                        let source = elements + (header.pointee.head + offset) % header.pointee.capacity
                        if unique {
                            (target + offset).moveInitialize(from: source, count: 1)
                        } else {
                            (target + offset).initialize(to: source.pointee)
                        }
                    }
                }
                if unique { header.pointee.count = 0 }
            }
        }
        storage = grown
    }
}

extension RingBuffer: @unchecked Sendable where Element: Sendable {}
// @unchecked Sendable is sound: the buffer is only reached through this struct, which has value
// semantics (every mutation first makes the storage unique), so a copy sent to another thread
// never shares mutable storage with the original; and the elements are `Sendable`.
