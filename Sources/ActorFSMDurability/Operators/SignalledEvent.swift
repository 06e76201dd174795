import ActorFSM
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The event an operator's signal sends, as an ``OperatorRequest`` carries it to the process
/// that runs the machine, which alone knows the machine's event type.
public enum SignalledEvent: Sendable, Equatable {
    /// The event whose case is named `name` (as the event prints: `paymentReceived`), with its
    /// associated values given by `payload`, JSON text, if it has any: as the `actorfsm`
    /// command writes it.
    ///
    /// The process reads it, in this order, as the schema's event that prints as `name` (for a
    /// case without payload); as the JSON `"name"` (an event type with `String` raw values);
    /// as `{"name": {}}`, `{"name": payload}` and `{"name": {"_0": payload}}` (the forms Swift
    /// synthesizes for an enum's cases without values, with labelled values, and with one
    /// unlabelled value).
    case named(String, payload: String?)
    /// The event as the store's codec (``MachineStore/codec``) encodes it: as a supervisor's
    /// `signal` writes it for another process sharing its store.
    case encoded([UInt8])

    /// How a request stores it.
    private struct Stored: Codable {
        var name: String?
        var payload: String?
        /// ``encoded(_:)``'s bytes, in Base64.
        var encoded: String?
    }

    /// The text a store keeps.
    package var text: String {
        let stored = switch self {
        case .named(let name, let payload): Stored(name: name, payload: payload)
        case .encoded(let bytes): Stored(encoded: Data(bytes).base64EncodedString())
        }
        return String(decoding: (try? JSONEncoder().encode(stored)) ?? Data(), as: UTF8.self)
    }

    /// The event the store's `text` holds; `nil` if it holds none.
    package init?(text: String) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: Data(text.utf8)) else { return nil }
        if let encoded = stored.encoded {
            guard let bytes = Data(base64Encoded: encoded) else { return nil }
            self = .encoded(Array(bytes))
        } else if let name = stored.name {
            self = .named(name, payload: stored.payload)
        } else {
            return nil
        }
    }

    /// The event of type `Event` this describes, among the schema's `events` (see
    /// ``named(_:payload:)`` for the forms tried), or through `codec` (see ``encoded(_:)``).
    ///
    /// - Throws: ``StoreError`` naming the event if no form decodes.
    package func event<Event: Decodable & Sendable>(
        of type: Event.Type, among events: [any Hashable & Sendable], codec: any DurableCodec
    ) throws(StoreError) -> Event {
        switch self {
        case .encoded(let bytes):
            do {
                return try codec.decode(Event.self, from: bytes)
            } catch {
                throw StoreError("the signalled event does not decode as \(Event.self): \(error)")
            }
        case .named(let name, let payload):
            if payload == nil, let event = events.lazy.compactMap({ $0 as? Event }).first(where: { "\($0)" == name }) {
                return event
            }
            for form in Self.forms(name: name, payload: payload) {
                if let event = try? JSONDecoder().decode(Event.self, from: Data(form.utf8)) { return event }
            }
            let given = payload.map { " with payload \($0)" } ?? ""
            throw StoreError("no event of \(Event.self) is named \(name)\(given): give a case's name as the event "
                             + "prints, and its associated values as JSON, an object of their labels (or a single value)")
        }
    }

    /// The JSON texts that may be the event named `name` with `payload`.
    private static func forms(name: String, payload: String?) -> [String] {
        guard let quoted = (try? JSONEncoder().encode(name)).map({ String(decoding: $0, as: UTF8.self) }) else { return [] }
        guard let payload else { return [quoted, "{\(quoted):{}}"] }
        return ["{\(quoted):\(payload)}", "{\(quoted):{\"_0\":\(payload)}}"]
    }
}
