/// The primary keys a save hands out to inserted objects, looked up by their temporary IDs.
///
/// Temporary IDs count up from 1 in each context, so an array indexed by that number replaces
/// a dictionary: no hashing for each of the (often many) objects and references a save writes.
struct PermanentKeys {
  private var keys: [Int64] = []

  /// Whether no key was handed out.
  var isEmpty: Bool { keys.isEmpty }

  /// Records the key of an object with a temporary ID.
  mutating func set(_ key: Int64, for id: ObjectID) {
    guard id.isTemporary else { return }
    let number = Int(-id.key)
    if number >= keys.count {
      keys.append(contentsOf: repeatElement(0, count: number - keys.count + 1))
    }
    keys[number] = key
  }

  /// The permanent ID that replaces a temporary one, if the save gave it a key.
  subscript(id: ObjectID) -> ObjectID? {
    guard id.isTemporary else { return nil }
    let number = Int(-id.key)
    guard number < keys.count, keys[number] != 0 else { return nil }
    return ObjectID(entity: id.entity, primaryKey: keys[number])
  }

  /// The primary key an ID stands for: its own when permanent, the handed-out one otherwise.
  func primaryKey(of id: ObjectID) -> Int64? {
    if let key = id.primaryKey { return key }
    let number = Int(-id.key)
    guard number < keys.count, keys[number] != 0 else { return nil }
    return keys[number]
  }
}
