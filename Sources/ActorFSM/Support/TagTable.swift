/// Maps the values of a payload-free enum to dense ids through their one-byte tag, instead of
/// hashing them: in generic code that cannot be specialized for the user's type, hashing goes
/// through witness tables on every event, while reading one byte does not.
///
/// It applies only to enums one byte wide (or none wide) whose values have distinct tags: the
/// byte is then the whole value. A miss is not final: the schema asks its dictionary, so a
/// type whose `==` equates distinct cases is still matched as it says. Other types use the
/// dictionary alone.
@usableFromInline
struct TagTable: Sendable {
    @usableFromInline let ids: [Int32]
    @usableFromInline let width: Int

    init?<Value: Hashable>(_ values: [Value]) {
        let width = MemoryLayout<Value>.size
        guard width <= 1, let first = values.first, Mirror(reflecting: first).displayStyle == .enum,
              values.allSatisfy({ Mirror(reflecting: $0).children.isEmpty })
        else { return nil }
        var ids = [Int32](repeating: -1, count: 256)
        for (index, value) in values.enumerated() {
            let tag = Self.tag(of: value, width: width)
            guard ids[tag] == -1 else { return nil }
            ids[tag] = Int32(index)
        }
        self.ids = ids
        self.width = width
    }

    @inlinable
    func id<Value>(of value: Value) -> Int32? {
        let id = ids[Self.tag(of: value, width: width)]
        return id >= 0 ? id : nil
    }

    @inlinable
    static func tag<Value>(of value: Value, width: Int) -> Int {
        width == 0 ? 0 : UnsafeAccess.firstByte(of: value)
    }
}
