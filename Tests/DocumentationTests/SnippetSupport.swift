import TestSupport
// The names the examples of the docs use for actions and conditions, shared by the snippet tests.

let lock: @Sendable () -> Void = {}
let unlock: @Sendable () -> Void = {}
let alarm: @Sendable () -> Void = {}
let thankyou: @Sendable () -> Void = {}
let alarmOn: @Sendable () -> Void = {}
let alarmOff: @Sendable () -> Void = {}
let beGrumpy: @Sendable () -> Void = {}
let refund: @Sendable () -> Void = {}
let smile: @Sendable () -> Void = {}
let defconOne: @Sendable () -> Void = {}
let log: @Sendable () -> Void = {}
func audit(_ text: String) {}
func isRushHour() -> Bool { false }
func isBusinessHours() -> Bool { true }

/// A warehouse that ships orders by number.
struct Warehouse {
    func ship(order: Int) async throws {}
}
let warehouse = Warehouse()
