/// Optional values by slot — an object's relationship values — where every slot is nil until
/// one is set.
///
/// The values are kept in an array only as long as the highest slot ever set: an object whose
/// relationships are all nil (a fetched row whose to-one keys are NULL, an object whose to-many
/// relationships were never loaded) holds the empty array, which costs no allocation and no
/// reference counting. A fetch makes and frees one object per row, so that is most objects.
struct OptionalSlots<Element: Equatable>: Equatable {
  private var storage: [Element?]

  /// Every slot nil.
  init() {
    storage = []
  }

  /// These values, slot by slot.
  init(_ values: [Element?]) {
    storage = values
  }

  /// The value in `slot` (any slot at or above zero; nil where none was set).
  subscript(slot: Int) -> Element? {
    get { slot < storage.count ? storage[slot] : nil }
    set {
      if slot >= storage.count {
        guard newValue != nil else { return }
        storage.append(contentsOf: repeatElement(nil, count: slot - storage.count + 1))
      }
      storage[slot] = newValue
    }
  }

  /// Whether every slot is nil.
  var isAllNil: Bool { storage.allSatisfy { $0 == nil } }

  /// The slots that may hold a value: every slot after them is nil.
  var indices: Range<Int> { storage.indices }

  /// Equal when every slot is, a slot never set being nil.
  static func == (lhs: OptionalSlots, rhs: OptionalSlots) -> Bool {
    let shared = min(lhs.storage.count, rhs.storage.count)
    for slot in 0..<shared where lhs.storage[slot] != rhs.storage[slot] { return false }
    return lhs.storage[shared...].allSatisfy { $0 == nil } && rhs.storage[shared...].allSatisfy { $0 == nil }
  }
}

extension OptionalSlots: Sendable where Element: Sendable {}
