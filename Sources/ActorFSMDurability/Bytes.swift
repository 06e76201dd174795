import ActorFSM

/// Appends the fields of a journal payload: fixed-width numbers little-endian, lengths and
/// small numbers as LEB128 varints.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A signed number, zig-zag encoded so that small negatives stay short.
    mutating func signed(_ value: Int64) { varint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }

    mutating func fixed64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating package func blob(_ value: [UInt8]) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func text(_ value: String) { blob(Array(value.utf8)) }

    /// Ends the payload with the CRC-32 of everything before it, computed after `binding` (see
    /// ``EntryBinding``): an entry sealed for one machine and number does not unseal as another's.
    mutating package func seal(binding: EntryBinding? = nil) { fixed32(CRC32.checksum(bytes[...], after: binding)) }
}

/// Reads what ``ByteWriter`` wrote; every read throws ``Truncated`` past the end.
package struct ByteReader {
    package struct Truncated: Error { package init() {} }

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Checks the CRC-32 that ``ByteWriter/seal(binding:)`` appended with the same `binding`,
    /// and returns a reader of the rest.
    static package func unsealing(_ bytes: [UInt8], binding: EntryBinding? = nil) -> ByteReader? {
        guard bytes.count >= 4 else { return nil }
        let body = bytes[..<(bytes.count - 4)]
        var stored: UInt32 = 0
        for index in 0..<4 { stored |= UInt32(bytes[bytes.count - 4 + index]) << UInt32(8 * index) }
        guard CRC32.checksum(body, after: binding) == stored else { return nil }
        return ByteReader(Array(body))
    }

    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws(Truncated) -> UInt8 {
        guard position < bytes.count else { throw Truncated() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func varint() throws(Truncated) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Truncated() }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(Truncated) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func fixed64() throws(Truncated) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(try byte()) << UInt64(8 * index) }
        return value
    }

    mutating package func blob() throws(Truncated) -> [UInt8] {
        let count = Int(try varint())
        guard count <= bytes.count - position else { throw Truncated() }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func text() throws(Truncated) -> String { String(decoding: try blob(), as: UTF8.self) }
}

/// What an entry's checksum covers besides its bytes: its machine's id and its number, so that
/// an entry copied under another machine or number does not unseal. Fed to the checksum as
/// `ByteWriter.text(machine)` then `varint(number)` would write them, without making those bytes.
package struct EntryBinding {
    let machine: String
    let number: UInt64
}

/// CRC-32 (the IEEE polynomial, as zlib computes it), which detects a torn or damaged entry.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The CRC-32 of `binding`'s bytes, if any, followed by `bytes`.
    static func checksum(_ bytes: ArraySlice<UInt8>, after binding: EntryBinding? = nil) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        if let binding {
            add(varint: UInt64(binding.machine.utf8.count), to: &crc)
            for byte in binding.machine.utf8 { add(byte, to: &crc) }
            add(varint: binding.number, to: &crc)
        }
        for byte in bytes { add(byte, to: &crc) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func add(_ byte: UInt8, to crc: inout UInt32) {
        crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }

    private static func add(varint value: UInt64, to crc: inout UInt32) {
        var value = value
        while value >= 0x80 {
            add(UInt8(truncatingIfNeeded: value) | 0x80, to: &crc)
            value >>= 7
        }
        add(UInt8(value), to: &crc)
    }
}
