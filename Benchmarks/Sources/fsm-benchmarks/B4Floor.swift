/// B4's baseline: bare actors (B1's `FloorActor`), as many as B4's machines, sent the same
/// events in the same orders by as many tasks. What the concurrency runtime itself does with an
/// order bounds what B4 can do with it.
func b4FloorVariants(_ settings: Settings, events: [TurnstileEvent]) -> [Variant] {
    let count = settings.b4Instances
    let clock = ContinuousClock()
    return Sharding.measuredCombinations(cores: settings.cores).map { tasks, sharding in
        Variant(name: "B4 actor-floor " + sharding.label(tasks: tasks)) { () async throws -> (Duration, Int) in
            let actors = (0..<count).map { _ in FloorActor() }
            let start = clock.now
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        let shard = sharding.indices(of: task, among: tasks, count: actors.count)
                        for event in events {
                            for index in shard { await actors[index].handle(event) }
                        }
                    }
                }
            }
            let elapsed = clock.now - start
            var checksum = 0
            for actor in actors { checksum &+= await actor.checksum }
            return (elapsed, checksum)
        }
    }
}
