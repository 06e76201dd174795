#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A live progress line on a terminal; plain lines at each quarter otherwise.
final class Progress {
    private let total: Int
    private let isTerminal = isatty(STDOUT_FILENO) == 1
    private var lastQuarter = 0
    private var lastDrawn = 0

    init(total: Int) { self.total = total }

    func update(_ done: Int, elapsed: Duration) {
        if isTerminal {
            guard done - lastDrawn >= max(1, total / 200) || done == total else { return }
            lastDrawn = done
            print("\r  \(done)/\(total) orders complete (\(done * 100 / total)%)", terminator: "")
            fflush(nil)  // all streams: naming `stdout` is not concurrency-safe in Swift 6
        } else {
            let quarter = done * 4 / total
            guard quarter > lastQuarter else { return }
            lastQuarter = quarter
            print("  \(done)/\(total) orders complete (\(quarter * 25)%)")
        }
    }

    func finish() {
        if isTerminal { print("") }
    }
}

/// `1.234`.
func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1_000).rounded())
    let fraction = String(thousandths % 1_000)
    return "\(thousandths / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
