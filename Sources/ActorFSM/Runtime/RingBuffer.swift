/// A first-in, first-out queue on a growable ring buffer: O(1) amortised append and removal at
/// both ends, and no allocation while the count stays within the capacity already reached.
@usableFromInline
struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline var count = 0

    @usableFromInline init() {}

    @inlinable var isEmpty: Bool { count == 0 }

    @inlinable
    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    @inlinable var first: Element? { count > 0 ? storage[head] : nil }

    @inlinable
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        // Give back a buffer that a burst grew, so an idle owner stays small.
        if count == 0 && storage.count > 64 {
            storage = []
            head = 0
        }
        return element
    }

    /// Removes and returns the first element that satisfies `predicate`, keeping the order of the rest.
    @usableFromInline
    mutating func removeFirst(where predicate: (Element) -> Bool) -> Element? {
        guard let offset = (0..<count).first(where: { predicate(storage[(head + $0) % storage.count]!) }) else {
            return nil
        }
        let removed = storage[(head + offset) % storage.count]
        for index in offset..<(count - 1) {
            storage[(head + index) % storage.count] = storage[(head + index + 1) % storage.count]
        }
        storage[(head + count - 1) % storage.count] = nil
        count -= 1
        return removed
    }

    /// Removes every element, in order.
    @usableFromInline
    mutating func removeAll() -> [Element] {
        var all: [Element] = []
        all.reserveCapacity(count)
        while let element = popFirst() { all.append(element) }
        return all
    }

    @usableFromInline
    mutating func grow() {
        var grown = [Element?](repeating: nil, count: Swift.max(8, storage.count * 2))
        for index in 0..<count { grown[index] = storage[(head + index) % storage.count] }
        storage = grown
        head = 0
    }
}

extension RingBuffer: Sendable where Element: Sendable {}
