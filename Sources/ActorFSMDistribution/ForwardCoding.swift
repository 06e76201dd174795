import ActorFSM
import ActorFSMDurability

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a durable supervisor writes the replies to events forwarded from other processes (see
/// ``ForwardingStore``), and reads them: JSON, the record's or the error's values without the
/// machine's id, which both sides know.
struct ForwardCoding<Definition: MachineDefinition>: Sendable {
    typealias Reply = Result<TransitionRecord<Definition>, MachineError<Definition>>

    let encodeReply: @Sendable (Reply) -> [UInt8]
    let decodeReply: @Sendable ([UInt8], Definition.ID) -> Reply

    init() where Definition.State: Codable, Definition.Event: Codable {
        encodeReply = { reply in
            (try? Array(JSONEncoder().encode(ReplyEnvelope(reply: reply)))) ?? Array(#"{"lost":true}"#.utf8)
        }
        decodeReply = { bytes, id in
            let decoder = JSONDecoder()
            decoder.userInfo[ReplyEnvelope<Definition>.machineID] = id
            do {
                return try decoder.decode(ReplyEnvelope<Definition>.self, from: Data(bytes)).reply
            } catch {
                let reason = StoreError("the reply of the process holding machine \(id) could not be read: \(error)")
                return .failure(MachineError(.notDurable, machineID: id, cause: reason))
            }
        }
    }
}

/// A reply as JSON: `{"record": {…}}` or `{"error": {…}}`.
private struct ReplyEnvelope<Definition: MachineDefinition>: Codable
where Definition.State: Codable, Definition.Event: Codable {
    private enum Keys: String, CodingKey { case record, error }
    /// Where a decoder finds the machine's id.
    static var machineID: CodingUserInfoKey { CodingUserInfoKey(rawValue: "actorfsm.machineID")! }

    let reply: ForwardCoding<Definition>.Reply

    init(reply: ForwardCoding<Definition>.Reply) { self.reply = reply }

    init(from decoder: any Decoder) throws {
        guard let id = decoder.userInfo[Self.machineID] as? Definition.ID else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no machine id to decode with"))
        }
        let container = try decoder.container(keyedBy: Keys.self)
        if container.contains(.record) {
            let fields = try container.nestedContainer(keyedBy: RecordCodingKeys.self, forKey: .record)
            reply = .success(try TransitionRecord(fields: fields, machineID: id))
        } else {
            let fields = try container.nestedContainer(keyedBy: ErrorCodingKeys.self, forKey: .error)
            reply = .failure(try MachineError(fields: fields, machineID: id))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch reply {
        case .success(let record):
            var fields = container.nestedContainer(keyedBy: RecordCodingKeys.self, forKey: .record)
            try record.encodeFields(to: &fields)
        case .failure(let error):
            var fields = container.nestedContainer(keyedBy: ErrorCodingKeys.self, forKey: .error)
            try error.encodeFields(to: &fields)
        }
    }
}

extension DurableCoding {
    /// `event` and `predicates` as another process's supervisor of the same schema reads them.
    func forwardedPayload(_ event: Event, _ predicates: PredicateContext?) throws -> [UInt8] {
        var writer = ByteWriter()
        writer.blob(try encodeEvent(event))
        StoredPredicate.write(store(predicates), to: &writer)
        writer.seal()
        return writer.bytes
    }

    /// The event and predicates of a payload ``forwardedPayload(_:_:)`` wrote.
    func forwardedEvent(_ payload: [UInt8]) throws -> (event: Event, predicates: PredicateContext?) {
        guard var reader = ByteReader.unsealing(payload) else { throw ByteReader.Truncated() }
        let event = try decodeEvent(try reader.blob())
        return (event, predicates(try StoredPredicate.read(from: &reader)))
    }
}
