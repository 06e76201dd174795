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
    /// order resumes by itself: it processes again the event a crash interrupted, then the events
    /// it had posted to itself, and its payment timeout keeps its deadline.
    static func resume(
        _ orders: Supervisor<OrderWorkflow>, count: Int, services: Services
    ) async throws -> [Int: OrderState] {
        var complete: [Int: OrderState] = [:]
        for id in 0..<count {
            let machine = try await orders.activate(id: id, data: OrderWorkflow.Data())
            let state = await machine.state
            if state.isFinal { complete[id] = state }
        }
        return complete
    }

    /// Submits (or cancels) every order still placed, and moves on any that a failure left
    /// behind, each with a durable `send`, recording every acknowledged event in `acks`.
    static func submit(
        _ orders: Supervisor<OrderWorkflow>, ids: [Int], services: Services, acks: AckLog
    ) -> Task<Void, any Error> {
        Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                var inFlight = 0
                for id in ids {
                    guard let state = await orders.machine(id: id)?.state,
                          let next = nextStep(for: id, in: state, services: services)
                    else { continue }
                    if inFlight == 256 {
                        try await group.next()
                        inFlight -= 1
                    }
                    inFlight += 1
                    group.addTask {
                        do {
                            let record = try await orders.send(to: id, next)
                            acks.record(id: id, sequenceNumber: record.sequenceNumber)
                        } catch let error as MachineError<OrderWorkflow> {
                            // A failed action: the supervisor restarts the order and moves it on.
                            guard error.kind == .actionFailed || error.kind == .stopped else { throw error }
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
