import Synchronization

/// The knobs of a run.
struct Settings: Sendable {
    var orders = 10_000
    var seed: UInt64 = 7
    /// The share of service calls that fail with an error (not a decline).
    var failureRate = 0.01
    /// The share of payments that are declined.
    var declineRate = 0.2
    /// The share of paid orders the customer cancels.
    var cancelRate = 0.05
    var maxPaymentAttempts = 3
    /// The share of charges the gateway never answers.
    var silenceRate = 0.02
    /// How long an order waits in payment pending for the gateway's answer. Scaled down for the
    /// example: a real gateway would get 30 seconds.
    var paymentTimeout = Duration.seconds(1)
    /// Simulated latency of a service call, in microseconds.
    var latencyMicroseconds = 200
}

struct ServiceUnavailable: Error, CustomStringConvertible {
    let service: String
    var description: String { "\(service) is unavailable" }
}

/// Seeded decisions: the same order, step and attempt always get the same answer, whatever the
/// scheduling, so a run is reproducible.
struct Dice: Sendable {
    let seed: UInt64

    func roll(_ order: Int, _ step: UInt64, _ attempt: Int = 0) -> Double {
        var x = seed ^ (UInt64(order) &* 0x9E37_79B9_7F4A_7C15) ^ (step &* 0xBF58_476D_1CE4_E5B9) ^ UInt64(attempt)
        for _ in 0..<3 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
        return Double(x >> 11) / Double(1 << 53)
    }
}

/// Whether every service call fails, as in an outage of all of them: what makes a run escalate.
let everyCallFails = Atomic<Bool>(false)

/// A simulated remote service: an actor that takes a little time and sometimes fails.
actor SimulatedService {
    let name: String
    let step: UInt64
    let settings: Settings
    let dice: Dice
    /// Calls per order: an order's calls are sequential (its machine runs one event at a time),
    /// so this count, unlike a global one, does not depend on scheduling.
    private var calls: [Int: Int] = [:]

    init(name: String, step: UInt64, settings: Settings) {
        self.name = name
        self.step = step
        self.settings = settings
        self.dice = Dice(seed: settings.seed)
    }

    /// One call: waits the simulated latency, then fails with the configured probability.
    func call(order: Int) async throws {
        calls[order, default: 0] += 1
        let call = calls[order]!
        try await Task.sleep(for: .microseconds(settings.latencyMicroseconds))
        if dice.roll(order, step &+ 100, call) < settings.failureRate || everyCallFails.load(ordering: .relaxed) {
            throw ServiceUnavailable(service: name)
        }
    }
}

/// What the payment gateway answers to a charge, if it answers at all.
enum ChargeAnswer: String, Sendable { case approved, declined, none }

/// The payment gateway: a charge can be approved or declined (answers), fail (an error), or never
/// be answered.
struct PaymentGateway: Sendable {
    let service: SimulatedService
    let settings: Settings
    /// The gateway's own record of the charges it took, by idempotency key, when it outlives the
    /// process (with `--store`).
    let ledger: PaymentLedger?

    /// Charges the card for `order`. A charge whose `key` the gateway has seen is not taken
    /// again: the gateway answers as it did the first time.
    func charge(order: Int, attempt: Int, key: String) async throws -> ChargeAnswer {
        try await service.call(order: order)
        let dice = Dice(seed: settings.seed)
        let answer: ChargeAnswer = dice.roll(order, 6, attempt) < settings.silenceRate ? .none
            : dice.roll(order, 1, attempt) >= settings.declineRate ? .approved : .declined
        return await ledger?.charge(key: key, order: order, answer: answer) ?? answer
    }

    func refund(order: Int) async throws { try await service.call(order: order) }

    /// Withdraws a charge that was never answered, so it cannot go through later.
    func void(order: Int) async throws { try await service.call(order: order) }
}

struct Warehouse: Sendable {
    let service: SimulatedService
    func pick(order: Int) async throws { try await service.call(order: order) }
}

struct Carrier: Sendable {
    let service: SimulatedService
    func deliver(order: Int) async throws { try await service.call(order: order) }
}

/// Everything the order actions talk to.
struct Services: Sendable {
    let settings: Settings
    let payments: PaymentGateway
    let warehouse: Warehouse
    let carrier: Carrier

    init(settings: Settings, ledger: PaymentLedger? = nil) {
        self.settings = settings
        payments = PaymentGateway(service: SimulatedService(name: "payments", step: 1, settings: settings),
                                  settings: settings, ledger: ledger)
        warehouse = Warehouse(service: SimulatedService(name: "warehouse", step: 2, settings: settings))
        carrier = Carrier(service: SimulatedService(name: "carrier", step: 3, settings: settings))
    }

    func customerCancels(order: Int) -> Bool {
        Dice(seed: settings.seed).roll(order, 4) < settings.cancelRate
    }

    /// Whether the customer cancels before submitting at all.
    func customerCancelsEarly(order: Int) -> Bool {
        Dice(seed: settings.seed).roll(order, 5) < settings.cancelRate / 2
    }
}
