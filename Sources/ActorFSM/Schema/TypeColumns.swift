/// Where each predicate type's weight lies in a row of `SchemaStorage.slotStrides`, and how a
/// lookup finds it from the type's identifier without searching.
///
/// The columns are the buckets of a multiplicative hash of the identifier, `(id × multiplier) >>
/// shift`, whose multiplier and size the schema picks when it is built so that each of its
/// predicate types, and `Never` (an empty place of a context), has a bucket of its own. A lookup
/// then finds a type's column with one multiplication, and one comparison tells it whether the
/// schema knows the type at all.
///
/// The widths tried are the three powers of two from the smallest that fits every type (so a
/// row is at most 8 times the number of types, rounded up), and at most ``maximumWidth``; each
/// with 32 multipliers. If none separates the types (a schema of very many predicate types),
/// the columns are the slots themselves and ``isHashed`` is false: every ``bucket(of:)`` is then
/// 0, whose identifier is 0, so a lookup's comparison fails and it takes the search by slot.
///
/// Types' identifiers are the addresses of their metadata, which differ from one process to the
/// next, so the width chosen, and near the limits whether a hash is found, can too.
@usableFromInline
struct TypeColumns: Sendable {
    /// The widest row the hash may ask for.
    static var maximumWidth: Int { 1_024 }

    /// How many columns a row has: a power of two when hashed, else the number of slots.
    let width: Int
    @usableFromInline let multiplier: UInt
    @usableFromInline let shift: UInt
    /// For each bucket, the identifier of the type whose column it is, or 0 for none: `width`
    /// of them when hashed, else one.
    @usableFromInline let identifiers: [UInt]
    /// The column of each slot.
    @usableFromInline let columnsOfSlots: [Int]
    /// Whether columns are found by hashing; otherwise lookups search by slot.
    let isHashed: Bool

    /// Columns for the types with these identifiers, one per slot, each identifier once.
    init(typeIDs: [ObjectIdentifier], maximumWidth: Int = Self.maximumWidth) {
        let keys = typeIDs.map { UInt(bitPattern: $0) }
        var fewest = 0
        while 1 << fewest < keys.count { fewest += 1 }
        for bits in fewest...(fewest + 2) where 1 << bits <= maximumWidth {
            // One key (bits 0) takes the one bucket with a multiplier of 0: a shift by 64 would
            // be a shift by 0 under `&>>`, and keep the whole product.
            let multipliers: [UInt] = bits == 0 ? [0] : Self.candidateMultipliers
            let shift: UInt = bits == 0 ? 0 : UInt(64 - bits)
            for multiplier in multipliers {
                let buckets = keys.map { Int(bitPattern: ($0 &* multiplier) &>> shift) }
                guard Set(buckets).count == keys.count else { continue }
                var identifiers = [UInt](repeating: 0, count: 1 << bits)
                for (key, bucket) in zip(keys, buckets) { identifiers[bucket] = key }
                self.init(width: 1 << bits, multiplier: multiplier, shift: shift,
                          identifiers: identifiers, columnsOfSlots: buckets, isHashed: true)
                return
            }
        }
        self.init(width: keys.count, multiplier: 0, shift: 0, identifiers: [0], columnsOfSlots: Array(keys.indices),
                  isHashed: false)
    }

    private init(width: Int, multiplier: UInt, shift: UInt, identifiers: [UInt], columnsOfSlots: [Int], isHashed: Bool) {
        // What `bucket(of:)`'s bound rests on: the top `64 - shift` bits of a product, below
        // `2^(64 - shift)` buckets, or a multiplier of 0 and one bucket.
        precondition(isHashed ? identifiers.count == width : identifiers == [0], "one identifier per bucket")
        precondition(multiplier == 0 ? identifiers.count == 1 : (1...63).contains(shift) && identifiers.count == 1 << (64 - shift),
                     "a bucket below the count of identifiers")
        (self.width, self.multiplier, self.shift) = (width, multiplier, shift)
        (self.identifiers, self.columnsOfSlots, self.isHashed) = (identifiers, columnsOfSlots, isHashed)
    }

    /// The bucket of `key` (an identifier's bits): below `identifiers.count`, since the top
    /// `64 - shift` bits of a product are below `2^(64 - shift)`, the hash's width; 0 when the
    /// multiplier is 0 (one bucket, or not hashed). The init checks both.
    @inlinable @inline(__always)
    func bucket(of key: UInt) -> Int { Int(bitPattern: (key &* multiplier) &>> shift) }

    /// The column of the type, if the schema knows it and columns are hashed: what the inline
    /// lookup computes for each place, for one type (tests use it).
    func column(of typeID: ObjectIdentifier) -> Int? {
        let key = UInt(bitPattern: typeID)
        let bucket = bucket(of: key)
        return identifiers[bucket] == key ? bucket : nil
    }

    /// Odd constants with well-mixed bits, tried in turn: the first is 2^64 divided by the golden
    /// ratio; the others come from a fixed SplitMix64 sequence, so a schema's layout depends only
    /// on its types' addresses.
    private static var candidateMultipliers: [UInt] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return [0x9E37_79B9_7F4A_7C15] + (0..<31).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt(mixed ^ (mixed >> 31)) | 1
        }
    }
}
