import DataModel

/// An object's committed attribute values — as last read from the store or saved — kept as what
/// differs from its current values.
///
/// Most objects are never changed, and most changes are of one property: keeping the committed
/// values as a second reference to the same storage made the first change of every object copy
/// all its values (an allocation, and a retain of each string), and every fetched object retain
/// and release the storage once more. Here an unchanged object keeps nothing, the first changed
/// slot keeps only its old value, and only a second changed slot copies the values.
enum CommittedAttributes {
  /// The same as the current values: nothing changed since they were read or saved.
  case unchanged
  /// The same as the current values except in one slot, whose committed value this is.
  ///
  /// Boxed (allocated on an object's first change), so that the record is one word: inline,
  /// the value made every object 24 bytes larger, over the size (120 bytes) that the C
  /// allocator frees through its fast bins — freeing objects was a quarter of a fetch.
  indirect case slot(Int, AttributeValue?)
  /// Values of their own: several slots changed, or the empty values of an inserted object.
  case values(AttributeValues)
}

extension ManagedObject {
  /// The committed values as a whole; for the rarer paths (refresh, merge), which may copy.
  /// Setting them to values that share the current values' storage records `unchanged`.
  var committedAttributeValues: AttributeValues {
    get {
      switch committedAttributes {
      case .unchanged: return attributeValues
      case .slot(let slot, let value):
        var values = attributeValues
        values[slot] = value
        return values
      case .values(let values): return values
      }
    }
    set {
      committedAttributes = newValue.sharesStorage(with: attributeValues) ? .unchanged : .values(newValue)
    }
  }

  /// The committed value of one slot.
  func committedAttributeValue(at slot: Int) -> AttributeValue? {
    switch committedAttributes {
    case .unchanged: return attributeValues[slot]
    case .slot(let changed, let value): return changed == slot ? value : attributeValues[slot]
    case .values(let values): return values[slot]
    }
  }

  /// Whether any attribute value differs from its committed value.
  var attributesDiffer: Bool {
    switch committedAttributes {
    case .unchanged: return false
    case .slot(let slot, let value): return attributeValues[slot] != value
    case .values(let values): return attributeValues != values
    }
  }

  /// Whether the value in an attribute slot differs from its committed value.
  func attributeDiffers(at slot: Int) -> Bool {
    switch committedAttributes {
    case .unchanged: return false
    case .slot(let changed, let value): return changed == slot && attributeValues[slot] != value
    case .values(let values): return attributeValues.differs(from: values, at: slot)
    }
  }

  /// Keeps the committed value of `slot`, before its current value changes.
  func keepCommittedValue(at slot: Int) {
    switch committedAttributes {
    case .unchanged:
      committedAttributes = .slot(slot, attributeValues[slot])
    case .slot(let changed, _) where changed == slot:
      break
    case .slot(let changed, let value):
      // A second slot changes: the committed values become values of their own.
      var values = attributeValues
      values[changed] = value
      committedAttributes = .values(values)
    case .values:
      break
    }
  }

  /// Puts the committed values back as the current ones (rollback).
  func restoreCommittedAttributes() {
    switch committedAttributes {
    case .unchanged: break
    case .slot(let slot, let value): attributeValues[slot] = value
    case .values(let values): attributeValues = values
    }
    committedAttributes = .unchanged
  }
}
