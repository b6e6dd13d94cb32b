import Testing

@testable import Persistence

/// The hash table behind ``ObjectPositions``' far keys must behave as a dictionary, through
/// growth and through removals that shift probe sequences.
@Suite("Scattered positions")
struct ScatteredPositionsTests {
  @Test("A random workload of sets and removals matches a dictionary")
  func randomWorkload() {
    var generator = SeedRandom(seed: 7)
    var table = ScatteredPositions()
    var expected: [[Int64]: Int] = [:]
    for step in 0..<50_000 {
      let entity = Int(generator.next() % 4)
      // Few distinct keys, so that removals hit and probe sequences collide.
      let key = Int64(generator.next() % 3_000) * (generator.next() % 2 == 0 ? 1 : 1 << 33) + 1
      if generator.next() % 3 == 0 {
        #expect(table.remove(entity: entity, key: key) == expected.removeValue(forKey: [Int64(entity), key]))
      } else {
        let isNew = table.set(step, entity: entity, key: key)
        #expect(isNew == (expected.updateValue(step, forKey: [Int64(entity), key]) == nil))
      }
    }
    #expect(table.count == expected.count)
    for (id, position) in expected { #expect(table.position(entity: Int(id[0]), key: id[1]) == position) }
    #expect(table.position(entity: 9, key: 1) == nil)
  }

  @Test("Keys that share their low bits, and the same key under other entities, stay apart")
  func collisions() {
    var table = ScatteredPositions()
    for index in 0..<1_000 { table.set(index, entity: index % 2, key: Int64(index) << 32) }
    for index in stride(from: 0, to: 1_000, by: 3) {
      #expect(table.remove(entity: index % 2, key: Int64(index) << 32) == index)
    }
    for index in 0..<1_000 {
      #expect(table.position(entity: index % 2, key: Int64(index) << 32) == (index % 3 == 0 ? nil : index))
      #expect(table.position(entity: 1 - index % 2, key: Int64(index) << 32) == nil)
    }
  }

  @Test("Removing a range of one entity's keys returns them and leaves the rest")
  func removeRange() {
    var table = ScatteredPositions()
    for key in Int64(1)...100 {
      table.set(Int(key), entity: 0, key: key)
      table.set(Int(key), entity: 1, key: key)
    }
    let removed = table.removeAll(entity: 0, keys: 10...19)
    #expect(removed.map(\.key).sorted() == Array(10...19))
    #expect(removed.allSatisfy { Int64($0.position) == $0.key })
    #expect(table.count == 190)
    #expect(table.position(entity: 0, key: 15) == nil)
    #expect(table.position(entity: 1, key: 15) == 15)
    #expect(table.position(entity: 0, key: 20) == 20)
  }
}
