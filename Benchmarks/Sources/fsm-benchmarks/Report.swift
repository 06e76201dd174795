/// The results as a table or as JSON, with the ratios the benchmarks are judged by.
struct Report {
    let results: [Measurement]
    let settings: Settings

    struct Ratio {
        let name: String
        let value: Double
        let target: String
    }

    /// A figure (the median by default) of the measurement called `name`, if it was measured.
    private func figure(_ name: String, _ keyPath: KeyPath<Measurement, Double> = \.median) -> Double? {
        results.first { $0.name == name }?[keyPath: keyPath]
    }

    var ratios: [Ratio] {
        var ratios: [Ratio] = []
        func add(
            _ name: String, _ numerator: String, _ denominator: String, _ target: String,
            of keyPath: KeyPath<Measurement, Double> = \.median
        ) {
            guard let top = figure(numerator, keyPath), let bottom = figure(denominator, keyPath),
                  bottom > 0, top > 0 else { return }
            ratios.append(Ratio(name: name, value: top / bottom, target: target))
        }
        add("B1 core/switch", "B1 core", "B1 switch", "≤ 3")
        add("B1 send/actor-floor", "B1 send", "B1 actor-floor", "≤ 1.5")
        add("B1 send, no-op instrument/none", "B1 send, no-op instrument", "B1 send", "≤ 1.05")
        add("B1 stream-floor/post", "B1 stream-floor", "B1 post", "≥ 10")
        add("B7 send, data/B1 send", "B7 send, counter in data", "B1 send", "≤ 1.2")
        add("B7 send, data/context action", "B7 send, counter in data", "B7 send, context action", "")
        add("B2 core/B1 core", "B2 core", "B1 core", "≤ 2")
        add("B2 core/table-floor", "B2 core", "B2 table-floor", "")
        add("B2 core, per-event/prepared", "B2 core, contexts per event", "B2 core", "≤ 1.5")
        add("B2 resolve/core", "B2 resolve", "B2 core", "≤ 2")
        add("B2 send, values/prepared", "B2 send, predicate values", "B2 send, prepared context", "≤ 1.3")
        add("B2 firstOf/one condition, core", "B2 firstOf core, 3 alternatives", "B2 condition core, 1 row", "≤ 1.2")
        add("B2 firstOf, first fires/one condition", "B2 firstOf core, the first fires", "B2 condition core, 1 row", "")
        add("B2 firstOf/one condition, send", "B2 firstOf send, 3 alternatives", "B2 condition send, 1 row", "≤ 1.2")
        let tasks = "\(settings.cores) tasks"
        add("B6 child round trip/two sends", "B6 parent and child, round trip", "B6 two sends", "≤ 10")
        add("B6 child floor/two sends", "B6 child floor: a new actor and a task per round, bare Swift", "B6 two sends", "")
        add("B6 child round trip/child floor", "B6 parent and child, round trip",
            "B6 child floor: a new actor and a task per round, bare Swift", "")
        add("B6 child finished by a send/two sends", "B6 parent and child, child sent its end", "B6 two sends", "")
        add("B6 child round trip/two awaited posts", "B6 parent and child, round trip",
            "B6 two posts, each awaited on the state stream", "")
        add("B8 durable child round trip/durable send", "B8 durable parent and child, round trip",
            "B8 durable send, beside the children", "")
        add("B4 speed-up, contiguous halves", "B4 1 task", "B4 " + tasks, "≥ 1.7")
        add("B4 speed-up, interleaved", "B4 1 task", "B4 \(tasks), interleaved", "≥ 1.7")
        // Each variant's least disturbed repetition: the two minima need not come from one pair.
        add("B4 speed-up, contiguous, fastest", "B4 1 task", "B4 " + tasks, "", of: \.min)
        add("B4 actor-floor, contiguous halves", "B4 actor-floor 1 task", "B4 actor-floor " + tasks, "")
        add("B4 actor-floor, interleaved", "B4 actor-floor 1 task", "B4 actor-floor \(tasks), interleaved", "")
        // Absolute limits, for figures that have no baseline.
        func limit(_ name: String, _ measurement: String, _ target: String) {
            guard let value = figure(measurement) else { return }
            ratios.append(Ratio(name: name, value: value, target: target))
        }
        limit("B3 shutdown (ms)", "B3 shutdown", "< 1000")
        limit("B3 shutdown, peak growth (MB)", "B3 shutdown, peak memory growth", "< 100")
        add("B5 8 subscribers/0", "B5 post, 8 subscribers", "B5 post, 0 subscribers", "≤ 2")
        add("B8 durable send/fdatasync", "B8 durable send, one machine", "B8 fdatasync of a commit's bytes", "≤ 2")
        limit("B8 durable transitions/s, 1,000 machines", "B8 durable transitions, 1,000 machines", "≥ 100000")
        add("B8 journal alone/with summaries, transitions/s", "B8 durable transitions, 1,000 machines, journal alone",
            "B8 durable transitions, 1,000 machines", "≤ 1.1")
        limit("B8 bytes per transition", "B8 bytes per transition, beyond event and data", "≤ 64")
        limit("B8 recovery, 100k machines (ms)", "B8 recovery, 100k machines", "< 2000")
        add("B8 in-memory send, slow disk/alone", "B8 in-memory send, slow disk beside", "B8 in-memory send, alone", "≤ 1.2")
        add("B9 durable send/commit, PostgreSQL", "B9 durable send on PostgreSQL, one machine",
            "B9 PostgreSQL commit of one entry", "≤ 2")
        limit("B9 durable transitions/s, 1 process, 1,000 machines", "B9 durable transitions on PostgreSQL, 1,000 machines", "")
        add("B9 journal alone/with summaries, transitions/s", "B9 durable transitions on PostgreSQL, 1,000 machines, journal alone",
            "B9 durable transitions on PostgreSQL, 1,000 machines", "≤ 1.1")
        for store in ["SQLite", "PostgreSQL"] {
            limit("B12 counts per state, \(store), 1M machines (ms)", "B12 counts per state, \(store), 1M machines", "< 1000")
            limit("B12 page of 100 stuck, \(store), 1M machines (ms)", "B12 page of 100 stuck machines, \(store), 1M machines",
                  "< 50")
            limit("B12 compatibility(), a state dropped, \(store), 1M machines (ms)",
                  "B12 compatibility(), a state dropped (125,000 machines), \(store), 1M machines", "< 1000")
        }
        limit("B10 durable transitions/s, 3 processes", "B10 durable transitions, 3 processes", "≥ 20000")
        limit("B10 cross-process send (µs)", "B10 cross-process send", "≤ 5000")
        add("B10 cross-process/same-process send", "B10 cross-process send", "B10 same-process send", "")
        limit("B10 forwarded send p50 (µs), 100 in flight", "B10 forwarded send, 100 in flight, p50", "≤ 10000")
        limit("B10 forwarded send p50 (µs), 1,000 in flight", "B10 forwarded send, 1,000 in flight, p50", "≤ 40000")
        limit("B10 forwarded send p99 (µs), 1,000 in flight", "B10 forwarded send, 1,000 in flight, p99", "≤ 120000")
        limit("B10 forwarded sends/s, 1,000 in flight", "B10 forwarded sends, 1,000 in flight", "≥ 15000")
        limit("B10 creations/s, one process", "B10 creations, one process", "≥ 20000")
        limit("B10 creations/s, each of 3 processes", "B10 creations, each of 3 processes", "")
        limit("B11 takeover (ms), leases of 2 s", "B11 takeover of a dead process's armed machines", "≤ 4000")
        limit("B11 survivors' send p99 (µs)", "B11 survivors' send during takeover, p99", "≤ 50000")
        add("B11 idle durable machine/B3 in memory", "B11 bytes per idle durable machine", "B3 bytes per idle instance", "")
        add("B5 1 subscriber/0", "B5 post, 1 subscriber", "B5 post, 0 subscribers", "")
        return ratios
    }

    var table: String {
        var lines = ["fsm-benchmarks (\(settings.quick ? "quick" : "full"), \(settings.cores) cores, medians of \(settings.repetitions))", ""]
        lines.append(pad("workload", 36) + pad("median", 12, right: true) + pad("min", 12, right: true)
                     + pad("max", 12, right: true) + "  unit        checksum")
        for result in results {
            lines.append(pad(result.name, 36) + pad(format(result.median), 12, right: true)
                         + pad(format(result.min), 12, right: true) + pad(format(result.max), 12, right: true)
                         + "  " + pad(result.unit, 12) + String(result.checksum))
        }
        if let b4 = figure("B4 \(settings.cores) tasks") {
            lines.append("")
            lines.append("B4 events per second with \(settings.cores) tasks, contiguous halves: \(format(Double(settings.b4Instances * 10) / (b4 / 1e3)))")
        }
        lines.append("")
        lines.append(pad("ratio", 36) + pad("value", 12, right: true) + "  target")
        for ratio in ratios {
            lines.append(pad(ratio.name, 36) + pad(format(ratio.value), 12, right: true) + "  " + ratio.target)
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let entries = results.map {
            "{\"name\":\"\($0.name)\",\"unit\":\"\($0.unit)\",\"median\":\($0.median),\"min\":\($0.min),\"max\":\($0.max),\"checksum\":\($0.checksum)}"
        }
        let ratioEntries = ratios.map { "{\"name\":\"\($0.name)\",\"value\":\($0.value),\"target\":\"\($0.target)\"}" }
        return "{\"mode\":\"\(settings.quick ? "quick" : "full")\",\"cores\":\(settings.cores),\"results\":["
            + entries.joined(separator: ",") + "],\"ratios\":[" + ratioEntries.joined(separator: ",") + "]}"
    }

    private func format(_ value: Double) -> String {
        let rounded = value >= 100 ? (value * 10).rounded() / 10 : (value * 100).rounded() / 100
        return String(rounded)
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: Swift.max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
