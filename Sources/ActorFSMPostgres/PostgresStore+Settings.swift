#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import ActorFSMDurability

/// The names a store goes by (its node's, its instance's, its namespace's), and the checks of
/// its settings.
extension PostgresStore {
    /// The host name, the process id and a random number.
    static func defaultNode() -> String {
        "\(hostName())-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// What tells this store apart from any other that ever had its node's name, and names its
    /// process to a person: `host pid 4242 #91c3a2f0`.
    static func instance() -> String {
        "\(hostName()) pid \(getpid()) #\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Refuses a lease duration or a reply timeout out of range.
    static func check(leaseDuration: Duration, replyTimeout: Duration) throws(StoreError) {
        guard leaseDuration >= .milliseconds(100), leaseDuration <= .seconds(86_400) else {
            throw StoreError("a lease duration of \(leaseDuration) is out of range: give 100 milliseconds to a day")
        }
        guard replyTimeout >= .seconds(1), replyTimeout <= .seconds(86_400) else {
            throw StoreError("a reply timeout of \(replyTimeout) is out of range: give 1 second to a day")
        }
    }

    /// Refuses a namespace that is not a lowercase schema name.
    static func check(namespace: String?) throws(StoreError) {
        guard let namespace, !isIdentifier(namespace) else { return }
        throw StoreError("the namespace \"\(namespace)\" is not a schema name: "
                         + "give 1 to 63 lowercase letters, digits and underscores, not starting with a digit")
    }

    /// Whether `name` is a lowercase identifier PostgreSQL takes unquoted as a schema's name.
    static func isIdentifier(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...63).contains(bytes.count), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0]) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
