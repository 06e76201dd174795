/// The package's reads of raw memory, in one place: each is sound for the reason its
/// documentation gives, and code elsewhere calls these rather than reaching for pointers.
/// (The lock-free index is ``TypeTableIndex``; the buffers of ``RingBuffer`` and the log chunks
/// own their memory and stay with their types.)
@usableFromInline
enum UnsafeAccess {
    /// The first byte of `value`'s memory, or 0 for a type of no size. For a type of at most one
    /// byte (every payload-free enum of up to 256 cases) that byte is the whole value, so equal
    /// bytes mean equal values.
    @inlinable @inline(__always)
    static func firstByte<Value>(of value: Value) -> Int {
        withUnsafeBytes(of: value) { $0.isEmpty ? 0 : Int($0[0]) }
    }

    /// The metatype that `identifier` was made from. `ObjectIdentifier(T.self)` wraps the
    /// metadata pointer of `T` and nothing else, so the cast gives `T.self` back.
    @inlinable
    static func metatype(of identifier: ObjectIdentifier) -> Any.Type {
        unsafeBitCast(identifier, to: Any.Type.self)
    }
}

/// A reference held without retaining it, for an object that something else keeps alive for at
/// least as long (a schema's tables own what their cells borrow): reading it costs no
/// reference counting.
@usableFromInline
struct Borrowed<Object: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked Sendable is sound: `Object` is `Sendable`, and the struct only carries the
    // reference (`Unmanaged` is not `Sendable` itself), handing it out as the reference it is.
    @usableFromInline let reference: Unmanaged<Object>

    /// Borrows `object`, which its owner keeps alive.
    @inlinable init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Calls `body` with the object, which stays alive for the call without being retained.
    @inlinable
    func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
        try reference._withUnsafeGuaranteedRef(body)
    }
}
