import ActorFSM
import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting a durable run, whether the store is new or holds the orders of a run that died.
enum DurableStart {
    /// Restores or makes every order's machine, and says which are already complete. A restored
    /// order goes on by itself: it processes again the event a crash interrupted, then the
    /// events it had posted to itself; its state's task or its child, which it links again,
    /// takes the next step, and timeouts keep their deadlines.
    static func resume(_ orders: Supervisor<OrderWorkflow>, count: Int) async throws -> [Int: OrderState] {
        var complete: [Int: OrderState] = [:]
        for id in 0..<count {
            let activated: Result<Machine<OrderWorkflow>, MachineError<OrderWorkflow>>
            do { activated = .success(try await orders.activate(id: id, data: OrderWorkflow.Data())) } catch { activated = .failure(error) }
            // --interrupt-after may stop the run while it restores.
            if case .failure(let error) = activated, error.kind == .stopped { return complete }
            let state = await (try activated.get()).state
            if state.isFinal { complete[id] = state }
        }
        return complete
    }

    /// Submits (or cancels) every order still placed, each with a durable `send`, recording
    /// every acknowledged event in `acks`. The workflow takes every later step by itself.
    static func submit(
        _ orders: Supervisor<OrderWorkflow>, ids: [Int], services: Services, acks: AckLog
    ) -> Task<Void, any Error> {
        Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var inFlight = 0
                for id in ids {
                    guard await orders.machine(id: id)?.state == .placed else { continue }
                    if inFlight == 256 {
                        try await group.next()
                        inFlight -= 1
                    }
                    inFlight += 1
                    group.addTask {
                        do {
                            let record = try await orders.send(to: id, firstStep(for: id, services: services))
                            acks.record(id: id, sequenceNumber: record.sequenceNumber)
                        } catch let error as MachineError<OrderWorkflow> {
                            // The run is being stopped or shut down.
                            guard error.kind == .stopped else { throw error }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

/// The events `send` acknowledged, a line `order sequence-number` each, for `--verify`.
final class AckLog: Sendable {
    private let descriptor: Int32

    init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    }

    func record(id: Int, sequenceNumber: UInt64) {
        let line = Array("\(id) \(sequenceNumber)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
