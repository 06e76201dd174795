import Synchronization

/// One measured figure: the median, min and max of its repetitions.
struct Measurement {
    let name: String
    let unit: String
    let median: Double
    let min: Double
    let max: Double
    let checksum: Int
}

/// Runs `body` once to warm up, then `repetitions` times, and reports per-unit figures.
///
/// `body` returns the elapsed time and a checksum of the results, so the optimiser cannot
/// delete the work; `units` divides the elapsed time (events per run, or 1 for a whole run).
func measure(
    _ name: String, unit: String, repetitions: Int, units: Double, scale: Double = 1,
    _ body: () async throws -> (Duration, Int)
) async rethrows -> Measurement {
    guard isSelected(name) else { return Measurement(skipped: name, unit: unit) }
    _ = try await body()
    var samples: [Double] = []
    var checksum = 0
    for _ in 0..<repetitions {
        let (elapsed, sum) = try await body()
        samples.append(elapsed.nanoseconds / units / scale)
        checksum &+= sum
    }
    return Measurement(name: name, unit: unit, samples: samples, checksum: checksum)
}

/// One of the variants that `measureInTurn` compares.
struct Variant {
    let name: String
    let body: () async throws -> (Duration, Int)
}

/// ``measure`` for variants whose ratio is judged: each is warmed up, then every repetition runs
/// each variant once. Their figures are then taken in the same minutes, so a change in the
/// machine's load moves them together instead of moving one of them.
func measureInTurn(
    _ variants: [Variant], unit: String, repetitions: Int, units: Double, scale: Double = 1
) async throws -> [Measurement] {
    let selected = variants.filter { isSelected($0.name) }
    for variant in selected { _ = try await variant.body() }
    var samples = Array(repeating: [Double](), count: selected.count)
    var checksums = Array(repeating: 0, count: selected.count)
    for _ in 0..<repetitions {
        for (index, variant) in selected.enumerated() {
            let (elapsed, sum) = try await variant.body()
            samples[index].append(elapsed.nanoseconds / units / scale)
            checksums[index] &+= sum
        }
    }
    return variants.map { variant in
        guard let index = selected.firstIndex(where: { $0.name == variant.name }) else {
            return Measurement(skipped: variant.name, unit: unit)
        }
        return Measurement(name: variant.name, unit: unit, samples: samples[index], checksum: checksums[index])
    }
}

/// For profiling one workload: FSM_BENCH_ONLY="B1 send" skips every measurement whose name
/// does not start with it.
private func isSelected(_ name: String) -> Bool {
    guard let only = getenv("FSM_BENCH_ONLY").map({ String(cString: $0) }) else { return true }
    return name.hasPrefix(only)
}

extension Measurement {
    /// The median, min and max of `samples`.
    init(name: String, unit: String, samples: [Double], checksum: Int) {
        let sorted = samples.sorted()
        self.init(name: name, unit: unit, median: sorted[sorted.count / 2], min: sorted.first!, max: sorted.last!,
                  checksum: checksum)
    }

    /// A measurement that `FSM_BENCH_ONLY` left out: the report drops it.
    init(skipped name: String, unit: String) {
        self.init(name: name, unit: unit, median: .nan, min: .nan, max: .nan, checksum: 0)
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// The seeded linear congruential generator the workloads draw from; never the system RNG.
struct LCG {
    private var state: UInt64

    init(seed: UInt64 = 42) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }

    /// A number in `0..<bound` from the top bits.
    mutating func next(below bound: Int) -> Int {
        Int((next() >> 33) % UInt64(bound))
    }
}

/// Resident memory of this process, in bytes, from /proc/self/status.
func residentBytes() -> Int { statusBytes("VmRSS:") }

/// The most resident memory this process has had, in bytes.
func peakResidentBytes() -> Int { statusBytes("VmHWM:") }

/// The figure of /proc/self/status on the line that starts with `field`, in bytes.
private func statusBytes(_ field: String) -> Int {
    guard let status = try? readFile("/proc/self/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1_024
    }
    return 0
}

private func readFile(_ path: String) throws -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
        let read = fread(&buffer, 1, buffer.count, file)
        if read <= 0 { break }
        bytes += buffer[..<read]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// A counter that synchronous actions increment.
///
/// `@unchecked Sendable` is safe here because of how the benchmarks use it: one counter per run,
/// incremented only by the actions of one machine (or by the one task of a core loop, or, in B4,
/// by the actions that one sending task runs in its own task), and a
/// machine runs its actions one at a time with an actor hop, which orders memory, between
/// transitions. It is read only after the run has completed and been awaited.
final class Counter: @unchecked Sendable {
    var value = 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Samples that concurrent tasks add to, under a lock.
final class SharedSamples: Sendable {
    private let samples = Mutex<[Int]>([])

    func append(_ sample: Int) { samples.withLock { $0.append(sample) } }

    var all: [Int] { samples.withLock { $0 } }
}
