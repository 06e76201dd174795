#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The payment gateway's ledger: every charge it took, by idempotency key, in a file that outlives
/// the example's process (a line `key order answer` per charge), as a real gateway's records would.
/// Several processes may share the file: each charge locks it, and reads what the others added.
actor PaymentLedger {
    private var answers: [String: (order: Int, answer: ChargeAnswer)] = [:]
    private let descriptor: Int32
    /// How much of the file has been read.
    private var offset: off_t = 0
    /// Charges asked again with a key the ledger knew, answered without charging.
    private(set) var repeatedKeys = 0

    init(path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        Self.readNewLines(descriptor, into: &answers, offset: &offset)
    }

    /// Takes a charge, or answers as before for a key already charged.
    func charge(key: String, order: Int, answer: ChargeAnswer) -> ChargeAnswer {
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        Self.readNewLines(descriptor, into: &answers, offset: &offset)
        if let known = answers[key] {
            repeatedKeys += 1
            return known.answer
        }
        answers[key] = (order, answer)
        // A plain write survives the process being killed; only a power cut would need an fsync.
        let line = Array("\(key) \(order) \(answer.rawValue)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        offset += off_t(line.count)
        return answer
    }

    /// Reads the charges added to the file since `offset`, and moves `offset` past them.
    private static func readNewLines(
        _ descriptor: Int32, into answers: inout [String: (order: Int, answer: ChargeAnswer)], offset: inout off_t
    ) {
        var read: off_t = 0
        for line in Self.readLines(descriptor, from: offset, count: &read) {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let order = Int(fields[1]), let answer = ChargeAnswer(rawValue: String(fields[2]))
            else { continue }
            answers[String(fields[0])] = (order, answer)
        }
        offset += read
    }

    /// How many approved charges each order has.
    var approvedCharges: [Int: Int] {
        answers.values.filter { $0.answer == .approved }.reduce(into: [:]) { $0[$1.order, default: 0] += 1 }
    }

    /// Every key charged, with its order and answer.
    var charges: [String: (order: Int, answer: ChargeAnswer)] { answers }

    static func readLines(_ descriptor: Int32) -> [Substring] {
        var read: off_t = 0
        return readLines(descriptor, from: 0, count: &read)
    }

    /// The lines from `start` on; `count` is set to the bytes read.
    static func readLines(_ descriptor: Int32, from start: off_t, count read: inout off_t) -> [Substring] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset = start
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            offset += off_t(count)
        }
        read = offset - start
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }
}
