import ActorFSM
import Synchronization
import Testing
import TestSupport

/// The last index a machine saw from each sender.
final class SenderLedger: Sendable {
    let last: Locked<[Int]>
    init(senders: Int) { last = Locked([Int](repeating: -1, count: senders)) }

    /// Records `index` from `sender`; returns whether it came right after the previous one.
    func record(sender: Int, index: Int) -> Bool {
        last.withLock { last in
            defer { last[sender] = index }
            return last[sender] == index - 1
        }
    }
}

/// An event that says who sent it and in which position.
enum Tick: CaseKeyed {
    case tick(sender: Int, index: Int)
    enum CaseKey: Hashable, Sendable { case tick }
    var caseKey: CaseKey { .tick }
}

/// Numbered turnstiles driven by ticks.
enum TickedTurnstile: MachineDefinition {
    typealias State = Turnstile.State
    typealias Event = Tick
    typealias ID = Int
}

@Suite struct LoadTests {
    @Test func aThousandMachinesTakeAThousandEventsEachFromConcurrentSenders() async throws {
        let machineCount = 1_000
        let senders = 4
        let perSender = 250
        // Per machine: the last index seen from each sender, and violations of FIFO order.
        let lastSeen = (0..<machineCount).map { _ in SenderLedger(senders: senders) }
        let violations = Atomic<Int>(0)
        let schema = try Schema<TickedTurnstile>(initial: .locked) {
            define(.locked) {
                when(.tick) | then(.unlocked) | { (context: TransitionContext<TickedTurnstile>) in
                    guard case .tick(let sender, let index) = context.event else { return }
                    if !lastSeen[context.id].record(sender: sender, index: index) { violations.add(1, ordering: .relaxed) }
                }
            }
            define(.unlocked) {
                when(.tick) | then(.locked) | { (context: TransitionContext<TickedTurnstile>) in
                    guard case .tick(let sender, let index) = context.event else { return }
                    if !lastSeen[context.id].record(sender: sender, index: index) { violations.add(1, ordering: .relaxed) }
                }
            }
        }
        let supervisor = Supervisor<TickedTurnstile>(schema: schema)
        let machines = try (0..<machineCount).map { try supervisor.spawn(id: $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for index in 0..<perSender {
                        for machine in machines {
                            if sender.isMultiple(of: 2) {
                                try await machine.send(.tick(sender: sender, index: index))
                            } else {
                                try machine.tryPost(.tick(sender: sender, index: index))
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        await supervisor.shutdown()
        #expect(violations.load(ordering: .relaxed) == 0)
        for (id, machine) in machines.enumerated() {
            #expect(await machine.isStopped)
            #expect(lastSeen[id].last.withLock { $0 } == [Int](repeating: perSender - 1, count: senders))
        }
        // An even number of events per machine leaves every machine where it started.
        for machine in machines { #expect(await machine.state == .locked) }
    }
}

// The limit leaves room for the thread sanitizer, beside the PostgreSQL suites.
@Suite(.timeLimit(.minutes(4))) struct AsyncLoadTests {
    @Test func suspendingActionsUnderLoadGiveEveryEventOneOutcome() async throws {
        let schema = try Schema<NumberedTurnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { await Task.yield() } }
            define(.unlocked) { when(.pass) | then(.locked) | { await Task.yield() } }
        }
        let supervisor = Supervisor<NumberedTurnstile>(schema: schema)
        let events = supervisor.reports()
        let machines = try (0..<50).map { try supervisor.spawn(id: $0) }
        let counted = Task {
            var outcomes = 0
            for await event in events where event.record != nil { outcomes += 1 }
            return outcomes
        }
        var withdrawn = 0
        try await withThrowingTaskGroup(of: Int.self) { group in
            for sender in 0..<4 {
                group.addTask {
                    var cancelled = 0
                    for index in 0..<100 {
                        for machine in machines {
                            let event: Event = (index + sender).isMultiple(of: 2) ? .coin : .pass
                            if index.isMultiple(of: 10) {
                                let send = Task { try await machine.send(event) }
                                send.cancel()
                                if case .failure(let error as TurnstileError) = await send.result, error.kind == .cancelled {
                                    cancelled += 1
                                }
                            } else {
                                try await machine.post(event)
                            }
                        }
                    }
                    return cancelled
                }
            }
            for try await cancelled in group { withdrawn += cancelled }
        }
        await supervisor.shutdown()
        // Every event was either withdrawn by its cancelled sender or got exactly one record.
        #expect(await counted.value + withdrawn == 4 * 100 * 50)
    }
}
