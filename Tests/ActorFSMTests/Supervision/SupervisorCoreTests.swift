@testable import ActorFSM
import Testing

/// The supervisor's core, input by input: machines come and go, failures restart or escalate,
/// and the end runs once, without a supervisor, a lock or a clock.
@Suite struct SupervisorCoreTests {
    /// A registered machine: its generation and whether its store refused a write.
    final class Member: SupervisedMachine {
        let generation: UInt64
        let hasStaleState: Bool

        init(_ generation: UInt64, stale: Bool = false) {
            self.generation = generation
            self.hasStaleState = stale
        }
    }

    struct Failure: Error {}

    typealias Core = SupervisorCore<String, Member, Int, String>

    let start = ContinuousClock.now
    let configuration = SupervisorConfiguration<Int>(intensity: RestartIntensity(maxRestarts: 1, within: .seconds(10)))

    /// A core with one machine of generation 1 under `id`.
    func core(with id: String, stale: Bool = false) -> (Core, Member) {
        var core = Core()
        #expect(core.admit(id) == .make)
        let child = Member(core.nextGeneration(), stale: stale)
        core.register(child, as: id)
        return (core, child)
    }

    func ended(_ core: inout Core, _ id: String, generation: UInt64 = 1, _ termination: MachineTermination,
               passivating: Bool = false) -> Core.EndDecision {
        core.machineEnded(id, generation: generation, termination, isPassivating: { _ in passivating },
                          at: start, under: configuration)
    }

    @Test func anIdIsTakenOnceAndGenerationsGrow() {
        var (core, _) = core(with: "a")
        #expect(core.admit("a") == .duplicate)
        #expect(core.admit("b") == .make)
        let generation = core.nextGeneration()
        #expect(generation == 2)
    }

    @Test func aMachineThatEndsWithoutFailingLeaves() {
        var (core, _) = core(with: "a")
        guard case .removed = ended(&core, "a", .shutDown) else { Issue.record("not removed"); return }
        #expect(core.machines.isEmpty)
        #expect(core.admit("a") == .make)
    }

    @Test func aPassivatedMachineIsReportedSo() {
        var (core, _) = core(with: "a")
        guard case .passivated = ended(&core, "a", .shutDown, passivating: true) else { Issue.record("not passivated"); return }
        #expect(core.machines.isEmpty)
    }

    @Test func aReportFromAReplacedMachineChangesNothing() {
        var (core, child) = core(with: "a")
        guard case .none = ended(&core, "a", generation: 7, .failed(Failure())) else { Issue.record("decided"); return }
        #expect(core.machines["a"] === child)
    }

    @Test func aFailureRestartsFromThePredecessorThenEscalates() {
        var (core, child) = core(with: "a")
        guard case .restart(let predecessor) = ended(&core, "a", .failed(Failure())) else { Issue.record("no restart"); return }
        #expect(predecessor === child)
        let successor = Member(core.nextGeneration())
        core.register(successor, as: "a")
        guard case .escalate(let escalated, let machines) = ended(&core, "a", generation: 2, .failed(Failure())) else {
            Issue.record("no escalation")
            return
        }
        #expect(escalated.id == "a" && escalated.limit == .perMachine(configuration.intensity))
        #expect(machines.count == 1 && machines[0] === successor)
        #expect(core.machines.isEmpty && core.isShutDown)
        #expect(core.admit("b") == .shutDown)
    }

    @Test func aMachineAheadOfItsStoreIsNotRestartedFromMemory() {
        var (core, _) = core(with: "a", stale: true)
        guard case .removed = ended(&core, "a", .failed(Failure())) else { Issue.record("not removed"); return }
        #expect(core.machines.isEmpty)
    }

    @Test func removalLeavesASuccessorInPlace() {
        var (core, old) = core(with: "a")
        let successor = Member(core.nextGeneration())
        core.register(successor, as: "a")
        let left = core.remove(old, from: "a")
        #expect(left === successor)
        let none = core.remove(successor, from: "a")
        #expect(none == nil)
        #expect(core.machines.isEmpty)
    }

    @Test func theEndStartsOnceAndLaterCallsJoinIt() {
        var (core, child) = core(with: "a")
        guard case .start(draining: true) = core.end(draining: true) else { Issue.record("not started"); return }
        core.ending(with: "shutdown")
        #expect(core.isShutDown && core.admit("b") == .shutDown)
        guard case .join("shutdown", let hurried) = core.end(draining: true), hurried.isEmpty else { Issue.record("not joined"); return }
        // A hard stop during a graceful shutdown hurries every machine.
        guard case .join("shutdown", let stopped) = core.end(draining: false) else { Issue.record("not joined"); return }
        #expect(stopped.count == 1 && stopped[0] === child)
        // Failures while ending restart nothing.
        guard case .removed = ended(&core, "a", .failed(Failure())) else { Issue.record("restarted"); return }
    }

    @Test func runnersWaitForTheEndAndLaterOnesDoNot() {
        var (core, _) = core(with: "a")
        let waits = [core.awaitEnd(1), core.awaitEnd(2)]
        #expect(waits == [true, true])
        _ = core.end(draining: false)
        core.ending(with: "stop")
        let resumed = core.allEnded()
        #expect(resumed == [1, 2])
        #expect(core.machines.isEmpty)
        let late = core.awaitEnd(3)
        #expect(!late)
        guard case .ended = core.end(draining: true) else { Issue.record("not ended"); return }
    }

    @Test func anEscalationIsAwaitedByALaterShutdown() {
        var (core, _) = core(with: "a")
        let strict = SupervisorConfiguration<Int>(restartStrategy: .escalate)
        let decision = core.machineEnded("a", generation: 1, .failed(Failure()), isPassivating: { _ in false },
                                         at: start, under: strict)
        guard case .escalate(let escalated, _) = decision else { Issue.record("no escalation"); return }
        #expect(escalated.limit == nil)
        core.escalating(with: "escalation")
        guard case .awaitEscalation("escalation") = core.end(draining: true) else { Issue.record("not awaited"); return }
    }
}
