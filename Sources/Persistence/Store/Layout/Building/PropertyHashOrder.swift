/// The order in which Core Data visits an entity's properties when it creates the single-column
/// indexes of indexed properties (`Z_<Entity>_<property>`).
///
/// That order is neither file nor name order: it is the bucket order of a Core Foundation hash
/// table keyed by property name. This type reproduces it: CFString's hash of the name's UTF-16
/// code units (64-bit), a table sized like CFBasicHash for the entity's property count
/// (3, 7, 13, 23, 41, … buckets for up to 3, 6, 11, 19, 32, … keys), and linear probing with the
/// names inserted in name order. It matches all four orders seen in real stores (LoopKit's
/// `CachedGlucoseObject`, `CachedInsulinDeliveryObject` and `PumpEvent`, Bookmarks V2), which a
/// wrong table size or hash would scramble. It only decides the order of `CREATE INDEX`
/// statements, never their content [inferred from the stores, see `docs/store-format.md`].
enum PropertyHashOrder {
  /// The names in Core Data's visiting order. `allNames` are every property name of the entity
  /// (inherited, transient and fetched properties included); the result lists only `selected`.
  /// `additionalKeyCount` counts keys the table holds besides the names, which only size it.
  static func order(selected: [String], allNames: [String], additionalKeyCount: Int = 0) -> [String] {
    let names = Array(Set(allNames + selected)).sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
    guard let size = tableSize(forCount: names.count + additionalKeyCount) else {
      return selected.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
    }
    var buckets = [String?](repeating: nil, count: size)
    for name in names {
      var bucket = Int(hash(name) % UInt64(size))
      while buckets[bucket] != nil { bucket = (bucket + 1) % size }
      buckets[bucket] = name
    }
    let wanted = Set(selected)
    return buckets.compactMap { $0 }.filter { wanted.contains($0) }
  }

  /// CFBasicHash's bucket counts and the key counts each may hold.
  private static let sizes: [(buckets: Int, capacity: Int)] = [
    (3, 3), (7, 6), (13, 11), (23, 19), (41, 32), (71, 52), (127, 85), (191, 118), (251, 155), (383, 237),
    (631, 390), (1087, 672),
  ]

  private static func tableSize(forCount count: Int) -> Int? {
    sizes.first { count <= $0.capacity }?.buckets
  }

  /// CFString's hash of a string (`__CFStrHashCharacters`, 64-bit `CFHashCode`).
  static func hash(_ string: String) -> UInt64 {
    let characters = Array(string.utf16).map(UInt64.init)
    let length = characters.count
    var result = UInt64(length)
    func addFour(at start: Int) {
      result =
        result &* 67_503_105 &+ characters[start] &* 16_974_593 &+ characters[start + 1] &* 66_049
        &+ characters[start + 2] &* 257 &+ characters[start + 3]
    }
    if length <= 96 {
      var index = 0
      while index + 4 <= length {
        addFour(at: index)
        index += 4
      }
      while index < length {
        result = result &* 257 &+ characters[index]
        index += 1
      }
    } else {
      for start in stride(from: 0, to: 32, by: 4) { addFour(at: start) }
      let middle = (length >> 1) - 16
      for start in stride(from: middle, to: middle + 32, by: 4) { addFour(at: start) }
      for start in stride(from: length - 32, to: length, by: 4) { addFour(at: start) }
    }
    return result &+ (result << UInt64(length & 31))
  }
}
