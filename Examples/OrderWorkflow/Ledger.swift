#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The payment gateway's ledger: every charge it took, by idempotency key, in a file that outlives
/// the example's process (a line `key order answer` per charge), as a real gateway's records would.
actor PaymentLedger {
    private var answers: [String: (order: Int, answer: ChargeAnswer)] = [:]
    private let descriptor: Int32
    /// Charges asked again with a key the ledger knew, answered without charging.
    private(set) var repeatedKeys = 0

    init(path: String) {
        descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        for line in Self.readLines(descriptor) {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let order = Int(fields[1]), let answer = ChargeAnswer(rawValue: String(fields[2]))
            else { continue }
            answers[String(fields[0])] = (order, answer)
        }
    }

    /// Takes a charge, or answers as before for a key already charged.
    func charge(key: String, order: Int, answer: ChargeAnswer) -> ChargeAnswer {
        if let known = answers[key] {
            repeatedKeys += 1
            return known.answer
        }
        answers[key] = (order, answer)
        // A plain write survives the process being killed; only a power cut would need an fsync.
        let line = Array("\(key) \(order) \(answer.rawValue)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return answer
    }

    /// How many approved charges each order has.
    var approvedCharges: [Int: Int] {
        answers.values.filter { $0.answer == .approved }.reduce(into: [:]) { $0[$1.order, default: 0] += 1 }
    }

    /// Every key charged, with its order and answer.
    var charges: [String: (order: Int, answer: ChargeAnswer)] { answers }

    static func readLines(_ descriptor: Int32) -> [Substring] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            offset += off_t(count)
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }
}
