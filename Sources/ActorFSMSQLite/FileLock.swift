import ActorFSM
import ActorFSMDurability

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a file next to the store, held while the store is open: a second
/// opener, in this process or another, is refused with the holder's process id. The kernel
/// releases it when the holder exits, however it exits (SIGKILL included).
final class FileLock: Sendable {
    /// The lock file's descriptor, -1 once released.
    private let descriptor: Locked<Int32>

    /// Takes the lock on `path`, creating the file if need be, and writes this process's id in it.
    init(path: String, guarding store: String) throws(StoreError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError("could not open the lock file \(path) of the store \(store): errno \(errno)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readProcessID(descriptor)
            close(descriptor)
            if holder == Int(getpid()) {
                throw StoreError("the store \(store) is already open in this process: open it once and share that "
                                 + "SQLiteStore between the supervisors and machines that use it", isLocked: true)
            }
            throw StoreError("the store \(store) is open in another process\(holder.map { " (pid \($0))" } ?? ""); "
                + "only one process writes a store at a time", isLocked: true)
        }
        let id = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = id.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = Locked(descriptor)
    }

    private static func readProcessID(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).filter(\.isNumber))
    }

    /// Lets another opener take the lock; later calls do nothing.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}
