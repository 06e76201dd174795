import ActorFSM
import ActorFSMDurability
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct SQLiteStoreTests {
    @Test func aMachineComesBackFromTheFileAfterTheStoreIsClosed() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("doors.sqlite")
        let store = try SQLiteStore(path: path)
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        try await door.send(.open)
        try await door.send(.close)
        try await door.send(.open)
        store.close()

        let reopened = try SQLiteStore(path: path)
        let again = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(reopened))
        #expect(await again.state == .open)
        #expect(await again.data.openings == 2)
        #expect(try await again.send(.close).sequenceNumber == 4)
        #expect(try await reopened.entries(of: "d").map(\.sequenceNumber) == [0, 1, 2, 3, 4])
        #expect(try await reopened.machineIDs() == ["d"])
        reopened.close()
    }

    @Test func aSecondOpenerInThisProcessIsToldToShareTheStore() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("held.sqlite")
        let store = try SQLiteStore(path: path)
        let error = #expect(throws: StoreError.self) { _ = try SQLiteStore(path: path) }
        #expect(error?.isLocked == true)
        #expect(error?.description.contains("already open in this process") == true)
        #expect(error?.description.contains("another process") == false)
        store.close()
        // Closed, it can be opened again.
        try SQLiteStore(path: path).close()
    }

    @Test func mustExistRefusesAMissingOrEmptyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("orders.sqlite")
        let missing = #expect(throws: StoreError.self) { _ = try SQLiteStore(path: path, mustExist: true) }
        #expect(missing?.description.contains("missing or empty") == true)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was created")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: StoreError.self) { _ = try SQLiteStore(path: path, mustExist: true) }
        try FileManager.default.removeItem(atPath: path)
        try SQLiteStore(path: path).close()
        try SQLiteStore(path: path, mustExist: true).close()
    }

    @Test func compactionKeepsTheNewestEntriesAndRecoveryReadsThem() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("compact.sqlite"))
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(),
                                     durability: doorDurability(store, compactionInterval: 10))
        for _ in 0..<25 {
            try await door.send(.open)
            try await door.send(.close)
        }
        let numbers = try await store.entries(of: "d").map(\.sequenceNumber)
        #expect(numbers == Array(50...50))
        let again = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(),
                                      durability: doorDurability(store, compactionInterval: 10))
        #expect(await again.data.openings == 25)
        store.close()
    }

    @Test func anEntryTakesFewBytesBeyondItsEventAndData() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteStore(path: folder.file("size.sqlite"))
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        try await door.send(.open)
        let entry = try #require(try await store.entries(of: "d").last)
        let event = try JSONCodec().encode(Door.Event.open).count
        let data = try JSONCodec().encode(Door.Data(openings: 1)).count
        #expect(entry.payload.count - event - data <= 40, "\(entry.payload.count) bytes")
        store.close()
    }
}
