@testable import ActorFSMInspector
import ActorFSMSQLite
import Testing

@Suite(.timeLimit(.minutes(1))) struct OverviewCacheTests {
    @Test func pagesThatAskWithinTheFreshnessShareOneRead() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let counted = OutageInspection(reader)
        let cache = OverviewCache(store: counted, freshness: .seconds(3_600))
        async let first = cache.overview()
        async let second = cache.overview()
        let (one, two) = try await (first, second)
        #expect(one.counts == two.counts)
        _ = try await cache.overview()
        #expect(counted.countReads.withLock { $0 } == 1)

        let uncached = OverviewCache(store: counted, freshness: .zero)
        _ = try await uncached.overview()
        _ = try await uncached.overview()
        #expect(counted.countReads.withLock { $0 } == 3, "a read older than the freshness is read again")
        reader.close()
        await shop.close()
    }

    @Test func aFailedReadIsNotKept() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let outage = OutageInspection(reader)
        let cache = OverviewCache(store: outage, freshness: .seconds(3_600))
        outage.failing.withLock { $0 = true }
        await #expect(throws: (any Error).self) { _ = try await cache.overview() }
        outage.failing.withLock { $0 = false }
        let read = try await cache.overview()
        #expect(!read.counts.isEmpty)
        reader.close()
        await shop.close()
    }
}
