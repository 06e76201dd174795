// fsm-benchmarks: the workloads of Docs/Performance.md (B1–B12), each reported with the baselines
// measured in the same run. Usage, from the repository's root:
// swift run -c release --package-path Benchmarks fsm-benchmarks [--quick] [--json] [B1 B3 …],
// or fsm-benchmarks --count EVENTS (B1's and B2's core steps untimed, for callgrind; other arguments ignored).
// B10 and B11 start this program again as their workers: fsm-benchmarks --b10-worker (or --b11-worker)
// INDEX URL MACHINES.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Settings {
    var quick = false
    var json = false
    var only: Set<String> = []
    var cores = 2
    /// `--count N`: run B1's and B2's core steps untimed, for callgrind (see InstructionCounts.swift).
    var countedEvents: Int?

    var repetitions: Int { quick ? 3 : 7 }
    var b1Events: Int { quick ? 200_000 : 10_000_000 }
    var b1StreamEvents: Int { quick ? 100_000 : 1_000_000 }
    var b2Events: Int { quick ? 100_000 : 1_000_000 }
    var b2SendEvents: Int { quick ? 20_000 : 200_000 }
    var b3Instances: Int { quick ? 100_000 : 1_000_000 }
    var b3Repetitions: Int { quick ? 1 : 3 }
    var b4Instances: Int { quick ? 10_000 : 100_000 }
    var b5Events: Int { quick ? 50_000 : 1_000_000 }
    var b6Events: Int { quick ? 20_000 : 200_000 }

    func runs(_ workload: String) -> Bool { only.isEmpty || only.contains(workload) }
}

let commandLine = CommandLine.arguments
if commandLine.count == 5, commandLine[1] == "--b10-worker", let index = Int(commandLine[2]), let machines = Int(commandLine[4]) {
    try await runB10Worker(index: index, url: commandLine[3], machines: machines)
    exit(0)
}
if commandLine.count == 5, commandLine[1] == "--b11-worker", let index = Int(commandLine[2]), let machines = Int(commandLine[4]) {
    try await runB11Worker(index: index, url: commandLine[3], machines: machines)
    exit(0)
}

var settings = Settings()
settings.cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": settings.quick = true
    case "--count":
        guard let count = arguments.popFirst().flatMap({ Int($0) }), count > 0 else {
            print("fsm-benchmarks: --count needs a number of events, as --count 1000000")
            exit(2)
        }
        settings.countedEvents = count
    case "--json": settings.json = true
    case "-h", "--help":
        print("usage: fsm-benchmarks [--quick] [--json] [B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12]\n       fsm-benchmarks --count EVENTS   (B1's and B2's core steps, untimed, for callgrind)")
        exit(0)
    case let name where name.hasPrefix("B"): settings.only.insert(name)
    default:
        print("fsm-benchmarks: unknown argument \(argument); see --help")
        exit(2)
    }
}

if let count = settings.countedEvents {
    try countInstructions(events: count)
    exit(0)
}

var results: [Measurement] = []
// B3 runs first: its memory reading needs a heap that other workloads have not grown.
if settings.runs("B3") { results += try await benchmarkB3(settings) }
if settings.runs("B1") { results += try await benchmarkB1(settings) }
if settings.runs("B7") { results += try await benchmarkB7(settings) }
if settings.runs("B2") { results += try await benchmarkB2(settings) }
if settings.runs("B4") { results += try await benchmarkB4(settings) }
if settings.runs("B5") { results += try await benchmarkB5(settings) }
if settings.runs("B6") { results += try await benchmarkB6(settings) + benchmarkB6Children(settings) }
if settings.runs("B8") { results += try await benchmarkB8(settings) }
if settings.runs("B9") { results += try await benchmarkB9(settings) }
if settings.runs("B10") { results += try await benchmarkB10(settings) }
if settings.runs("B11") { results += try await benchmarkB11(settings) }
if settings.runs("B12") { results += try await benchmarkB12(settings) }

// Measurements skipped by FSM_BENCH_ONLY are left out of the report and its ratios.
let report = Report(results: results.filter { !$0.median.isNaN }, settings: settings)
print(settings.json ? report.json : report.table)
