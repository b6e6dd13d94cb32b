import DataModel
import Testing

@testable import Persistence

/// `StoreConnection.inKeyOrder`: selected IDs put in key order, through a bitmap of their range
/// when they are dense and of one entity, else sorted.
@Suite("Selected IDs in key order")
struct KeyOrderTests {
  static let entity = EntityID(0)
  static let other = EntityID(1)

  static func ids(_ keys: [Int64], entity: EntityID = entity) -> [ObjectID] {
    keys.map { ObjectID(entity: entity, primaryKey: $0) }
  }

  @Test(
    "Dense keys (across words and at their edges), sparse keys, one key and none come out ascending",
    arguments: [
      [Int64](), [7], [2, 1], Array((1...200).reversed()), [64, 1, 65, 128, 127, 63, 129],
      Array(stride(from: 1000, through: 1, by: -3)), [1_000_000, 3, 70_000], [5, 4, 9, 1_000],
      (1...130).map { Int64(($0 * 37) % 131 + 1) },
    ])
  func ascending(keys: [Int64]) {
    let ordered = StoreConnection.inKeyOrder(Self.ids(keys), entity: Self.entity)
    #expect(ordered == Self.ids(keys.sorted()))
  }

  @Test("Keys of zero and below, next to the largest key, are sorted without overflowing")
  func keysBelowOne() {
    let keys: [Int64] = [.max, -3, 0, .min, 5]
    let ordered = StoreConnection.inKeyOrder(Self.ids(keys), entity: Self.entity)
    #expect(ordered.map { $0.key } == keys.sorted())
  }

  @Test("IDs of several entities keep each its entity, sorted by key")
  func severalEntities() {
    let mixed = Self.ids([9, 3, 5]) + Self.ids([4, 8], entity: Self.other)
    let ordered = StoreConnection.inKeyOrder(mixed, entity: nil)
    #expect(ordered.map(\.entity) == [Self.entity, Self.other, Self.entity, Self.other, Self.entity])
    #expect(ordered.map { $0.primaryKey ?? 0 } == [3, 4, 5, 8, 9])
  }

  @Test("A key listed twice is kept twice (the bitmap would drop it: the sort is used)")
  func repeatedKey() {
    let ordered = StoreConnection.inKeyOrder(Self.ids([3, 1, 2, 3]), entity: Self.entity)
    #expect(ordered == Self.ids([1, 2, 3, 3]))
  }
}
