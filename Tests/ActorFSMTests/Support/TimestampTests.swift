@testable import ActorFSM
import Testing
import TestSupport

/// Records and inbox entries read the system clock directly: their times must be the
/// continuous clock's own instants, in order with readings of `ContinuousClock.now`.
@Suite struct TimestampTests {
    /// Catches a wrong clock, unit or epoch. (On Linux, `CLOCK_MONOTONIC` would pass too on a
    /// machine that has never been suspended: it then equals `CLOCK_BOOTTIME`.)
    @Test func aReadingIsAnInstantOfTheContinuousClock() {
        for _ in 0..<1_000 {
            let before = ContinuousClock.now
            let reading = Timestamp.now
            let after = ContinuousClock.now
            #expect(before <= reading.instant && reading.instant <= after)
        }
    }

    @Test func theClocksOwnInstantsConvertBothWaysExactly() {
        let instant = ContinuousClock.now
        #expect(Timestamp(instant).instant == instant)
        let later = instant.advanced(by: .seconds(3) + .nanoseconds(7))
        #expect(Timestamp(later).nanoseconds - Timestamp(instant).nanoseconds == 3_000_000_007)
    }

    @Test func aRecordsTimesLieWithinItsSend() async throws {
        let schema = try Schema<NumberedTurnstile>(initial: .locked, final: [.unlocked]) {
            define(.locked) { when(.coin) | then(.unlocked) }
        }
        let machine = Machine(schema: schema, id: 1)
        let before = ContinuousClock.now
        let record = try await machine.send(.coin)
        let after = ContinuousClock.now
        #expect(before <= record.acceptedAt)
        #expect(record.acceptedAt <= record.completedAt)
        #expect(record.completedAt <= after)
    }
}
