import DataModel
import Testing

@testable import Persistence

/// The registry's table of positions: dense runs of primary keys and the hash table for keys
/// far from them must behave as one dictionary.
@Suite("Object positions")
struct ObjectPositionsTests {
  private func id(_ entity: Int, _ key: Int64) -> ObjectID { ObjectID(entity: EntityID(entity), primaryKey: key) }

  @Test("Keys met in ascending, descending and scattered order are all found")
  func orders() {
    var positions = ObjectPositions()
    var expected: [ObjectID: Int] = [:]
    let keys: [Int64] = Array(1...3_000) + Array((5_000...6_000).reversed()) + [1 << 40, 9_999_999, 7, 70_000]
    for (position, key) in keys.enumerated() {
      positions.set(position, for: id(0, key))
      expected[id(0, key)] = position
    }
    #expect(positions.count == expected.count)
    for (objectID, position) in expected { #expect(positions[objectID] == position) }
    #expect(positions[id(0, 4_000)] == nil)
    #expect(positions[id(1, 1)] == nil)
    #expect(positions[id(0, 0)] == nil)
  }

  @Test("Entities have their own keys")
  func entitiesApart() {
    var positions = ObjectPositions()
    positions.set(0, for: id(2, 10))
    positions.set(1, for: id(0, 10))
    #expect(positions[id(2, 10)] == 0)
    #expect(positions[id(0, 10)] == 1)
    #expect(positions[id(1, 10)] == nil)
    #expect(positions.count == 2)
  }

  @Test("Whether an entity holds IDs follows its run and its scattered keys")
  func holdsIDs() {
    var positions = ObjectPositions()
    #expect(!positions.holdsIDs(ofEntity: 0))
    positions.set(0, for: id(1, 1 << 40))
    positions.set(1, for: id(2, 5))
    #expect(!positions.holdsIDs(ofEntity: 0))
    #expect(positions.holdsIDs(ofEntity: 1))
    #expect(positions.holdsIDs(ofEntity: 2))
    #expect(!positions.holdsIDs(ofEntity: 9))
    positions.remove(id(1, 1 << 40))
    positions.remove(id(2, 5))
    #expect(!positions.holdsIDs(ofEntity: 1))
    #expect(!positions.holdsIDs(ofEntity: 2))
  }

  @Test("Removing and setting again keeps the count and the positions right")
  func removeAndSet() {
    var positions = ObjectPositions()
    for key in Int64(1)...100 { positions.set(Int(key), for: id(0, key)) }
    #expect(positions.remove(id(0, 50)) == 50)
    #expect(positions.remove(id(0, 50)) == nil)
    #expect(positions[id(0, 50)] == nil)
    #expect(positions.count == 99)
    positions.set(7, for: id(0, 50))
    positions.set(8, for: id(0, 50))
    #expect(positions[id(0, 50)] == 8)
    #expect(positions.count == 100)
  }

  @Test("A random workload matches a dictionary")
  func randomWorkload() {
    var generator = SeedRandom(seed: 42)
    var positions = ObjectPositions()
    var expected: [ObjectID: Int] = [:]
    for step in 0..<20_000 {
      let entity = Int(generator.next() % 3)
      // Mostly near keys, sometimes far ones, so that both the runs and the hash table serve.
      let key =
        generator.next() % 10 == 0 ? Int64(generator.next() % 1_000_000_000) + 1 : Int64(generator.next() % 5_000) + 1
      let objectID = id(entity, key)
      if generator.next() % 4 == 0 {
        #expect(positions.remove(objectID) == expected.removeValue(forKey: objectID))
      } else {
        positions.set(step, for: objectID)
        expected[objectID] = step
      }
    }
    #expect(positions.count == expected.count)
    for (objectID, position) in expected { #expect(positions[objectID] == position) }
  }
}

extension ObjectPositionsTests {
  @Test("Keys met in an index's order, spread over a large table, move from the hash table into the run")
  func spreadKeys() {
    var positions = ObjectPositions()
    var expected: [ObjectID: Int] = [:]
    // As a fetch sorted by another column meets keys: strides across 100,000 keys, shifted.
    var position = 0
    for offset in Int64(0)..<1_000 {
      for key in stride(from: offset + 1, through: 100_000, by: 997) {
        positions.set(position, for: id(3, key))
        expected[id(3, key)] = position
        position += 1
      }
    }
    #expect(positions.count == expected.count)
    for (objectID, position) in expected { #expect(positions[objectID] == position) }
    for (objectID, position) in expected where objectID.key % 2 == 0 {
      #expect(positions.remove(objectID) == position)
    }
    for (objectID, position) in expected {
      #expect(positions[objectID] == (objectID.key % 2 == 0 ? nil : position))
    }
    #expect(positions.count == expected.keys.filter { $0.key % 2 != 0 }.count)
  }
}
