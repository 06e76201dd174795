@testable import ActorFSM
import Testing

/// The supervisor's restart decisions, failure by failure, with the instants as inputs.
@Suite struct RestartBookTests {
    typealias Book = RestartBook<String>
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1_000)) }

    func configuration(
        _ strategy: RestartStrategy = .restart, intensity: RestartIntensity = RestartIntensity(maxRestarts: 2, within: .seconds(10)),
        overall: RestartIntensity? = nil
    ) -> SupervisorConfiguration<Int> {
        SupervisorConfiguration(restartStrategy: strategy, intensity: intensity, overallIntensity: overall)
    }

    @Test func aMachineRestartsUntilItsIntensityIsExceeded() {
        var book = Book()
        let configuration = configuration()
        #expect(book.failed("a", at: at(0), under: configuration) == .restart)
        #expect(book.failed("a", at: at(1), under: configuration) == .restart)
        #expect(book.failed("a", at: at(2), under: configuration) == .exceedsPerMachine(configuration.intensity))
    }

    @Test func restartsThatLeftTheWindowNoLongerCount() {
        var book = Book()
        let configuration = configuration()
        #expect(book.failed("a", at: at(0), under: configuration) == .restart)
        #expect(book.failed("a", at: at(1), under: configuration) == .restart)
        // The window is 10 s: the restart at 0 s has left it, the one at 1 s has not.
        #expect(book.failed("a", at: at(10), under: configuration) == .restart)
        #expect(book.failed("a", at: at(10.5), under: configuration) == .exceedsPerMachine(configuration.intensity))
    }

    @Test func eachMachineHasItsOwnCount() {
        var book = Book()
        let configuration = configuration()
        for id in ["a", "b", "a", "b"] {
            #expect(book.failed(id, at: at(0), under: configuration) == .restart)
        }
        #expect(book.machinesCounted == 2)
    }

    @Test func theOverallIntensityCountsEveryMachine() {
        var book = Book()
        let overall = RestartIntensity(maxRestarts: 3, within: .seconds(10))
        let configuration = configuration(overall: overall)
        for id in ["a", "b", "c"] {
            #expect(book.failed(id, at: at(1), under: configuration) == .restart)
        }
        #expect(book.failed("d", at: at(2), under: configuration) == .exceedsOverall(overall))
        // Refused restarts are not counted: once the window has moved on, restarts are let in.
        #expect(book.failed("d", at: at(11), under: configuration) == .restart)
    }

    @Test func theOtherStrategiesNeverRestart() {
        var book = Book()
        #expect(book.failed("a", at: at(0), under: configuration(.leaveStopped)) == .leaveStopped)
        #expect(book.failed("a", at: at(0), under: configuration(.escalate)) == .escalate)
        #expect(book.machinesCounted == 0)
    }

    @Test func aMachineThatLeftStartsItsCountAgain() {
        var book = Book()
        let configuration = configuration()
        #expect(book.failed("a", at: at(0), under: configuration) == .restart)
        #expect(book.failed("a", at: at(1), under: configuration) == .restart)
        book.forget("a")
        #expect(book.machinesCounted == 0)
        #expect(book.failed("a", at: at(2), under: configuration) == .restart)
    }
}
