import Synchronization

/// Finds a predicate case's position in its type's `allCases` in O(1), without allocating.
///
/// A type of at most one byte (every payload-free enum of up to 256 cases) is held whole in
/// that byte. The first time such a type is met, its `allCases` is read once into a table from
/// byte to ordinal, registered under the type's identifier; every later case of the type is one
/// read of that table. Tables are found again through an open-addressing index that readers
/// search without a lock (see ``TypeTableIndex``).
///
/// A byte that no value of `allCases` holds (a case that `allCases` omits) and every wider type
/// fall back to searching `allCases` with `==`, as ``MatchingPredicate``'s contract defines the
/// ordinal, so both paths agree for any conformance, even one whose `==` equates distinct cases.
@usableFromInline
enum CaseOrdinals {
    /// The ordinal of `value` in `allCases`, or -1 if `allCases` does not list it.
    @inlinable @inline(__always)
    static func ordinal<P: MatchingPredicate>(of value: P) -> Int32 {
        if MemoryLayout<P>.size <= 1 {
            let table = TypeTableIndex.table(for: UInt(bitPattern: ObjectIdentifier(P.self))) ?? register(P.self)
            let ordinal = table[byte(of: value)]
            if ordinal >= 0 { return Int32(ordinal) }
        }
        return searchedOrdinal(of: value)
    }

    /// The byte that holds `value`, of a type of at most one byte: the whole value.
    @inlinable @inline(__always)
    static func byte<P>(of value: P) -> Int { UnsafeAccess.firstByte(of: value) }

    /// The ordinal of `value` found by searching `allCases` with `==`: the definition.
    @usableFromInline
    static func searchedOrdinal<P: MatchingPredicate>(of value: P) -> Int32 {
        let all = P.allCases
        guard let position = all.firstIndex(of: value) else { return -1 }
        let distance = all.distance(from: all.startIndex, to: position)
        return distance <= Int(Int32.max) ? Int32(distance) : -1
    }

    /// Reads `P.allCases` once into a table from byte to ordinal (-1 where no listed value holds
    /// the byte, or its ordinal does not fit 16 bits), registers it, and returns it.
    @usableFromInline @inline(never)
    static func register<P: MatchingPredicate>(_ type: P.Type) -> UnsafePointer<Int16> {
        TypeTableIndex.insert(UInt(bitPattern: ObjectIdentifier(P.self))) {
            var table = [Int16](repeating: -1, count: 256)
            for value in P.allCases {
                guard table[byte(of: value)] < 0 else { continue }
                let ordinal = searchedOrdinal(of: value)
                if ordinal >= 0 && ordinal <= Int32(Int16.max) { table[byte(of: value)] = Int16(ordinal) }
            }
            return table
        }
    }
}
