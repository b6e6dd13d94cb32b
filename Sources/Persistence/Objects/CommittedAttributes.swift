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
  /// The same as the current values except in one slot, whose committed value the record
  /// holds.
  ///
  /// A reference (allocated on an object's first change), so that the enumeration is one word:
  /// inline, the value made every object 24 bytes larger, over the size (120 bytes) that the C
  /// allocator frees through its fast bins — freeing objects was a quarter of a fetch.
  case slot(CommittedSlot)
  /// Values of their own: several slots changed, or the empty values of an inserted object.
  /// Boxed, for the same reason as `slot`: values take ten bytes (see ``AttributeValues``).
  case values(CommittedValues)
}

/// Committed values of their own (``CommittedAttributes/values(_:)``), immutable: a change
/// records a new box.
final class CommittedValues: Sendable {
  let values: AttributeValues

  init(_ values: AttributeValues) {
    self.values = values
  }
}

/// The committed value of an object's one changed attribute slot, and whether the current value
/// differs from it.
///
/// `differs` is kept as the value is set (``ManagedObject/setAttributeValue(_:at:)`` is the one
/// place that changes a slot while a record exists): the first change of an unchanged object
/// differs by definition, a later one of the same slot is compared once then. A save, which asks
/// several times whether an object changed (pending changes, changed columns, constraints),
/// compares nothing.
final class CommittedSlot {
  let slot: Int
  let value: AttributeValue?
  var differs: Bool

  init(slot: Int, value: AttributeValue?, differs: Bool) {
    self.slot = slot
    self.value = value
    self.differs = differs
  }
}

extension ManagedObject {
  /// The committed values as a whole; for the rarer paths (refresh, merge), which may copy.
  /// Setting them to values that share the current values' storage records `unchanged`.
  var committedAttributeValues: AttributeValues {
    get {
      switch committedAttributes {
      case .unchanged: return attributeValues
      case .slot(let record):
        var values = attributeValues
        values[record.slot] = record.value
        return values
      case .values(let record): return record.values
      }
    }
    set {
      committedAttributes =
        newValue.sharesStorage(with: attributeValues) ? .unchanged : .values(CommittedValues(newValue))
    }
  }

  /// The committed value of one slot.
  func committedAttributeValue(at slot: Int) -> AttributeValue? {
    switch committedAttributes {
    case .unchanged: return attributeValues[slot]
    case .slot(let record): return record.slot == slot ? record.value : attributeValues[slot]
    case .values(let record): return record.values[slot]
    }
  }

  /// Whether any attribute value differs from its committed value.
  var attributesDiffer: Bool {
    switch committedAttributes {
    case .unchanged: return false
    case .slot(let record): return record.differs
    case .values(let record): return attributeValues != record.values
    }
  }

  /// Whether the value in an attribute slot differs from its committed value.
  func attributeDiffers(at slot: Int) -> Bool {
    switch committedAttributes {
    case .unchanged: return false
    case .slot(let record): return record.slot == slot && record.differs
    case .values(let record): return attributeValues.differs(from: record.values, at: slot)
    }
  }

  /// Puts `newValue` (which differs from the current value) in `slot`, keeping the committed
  /// value and whether the new value differs from it.
  func replaceAttributeValue(at slot: Int, with newValue: AttributeValue?) {
    switch committedAttributes {
    case .unchanged:
      // The first change (the common one): the old value moves from the values into the
      // committed record, the new one takes its place; nothing is copied. It differs from the
      // committed value by definition.
      let committed = attributeValues.exchange(slot, with: newValue)
      committedAttributes = .slot(CommittedSlot(slot: slot, value: committed, differs: true))
      return
    case .slot(let record) where record.slot == slot:
      record.differs = !AttributeValue.equal(newValue, record.value)
    case .slot(let record):
      // A second slot changes: the committed values become values of their own.
      var values = attributeValues
      values[record.slot] = record.value
      committedAttributes = .values(CommittedValues(values))
    case .values:
      break
    }
    attributeValues[slot] = newValue
  }

  /// Puts the committed values back as the current ones (rollback).
  func restoreCommittedAttributes() {
    switch committedAttributes {
    case .unchanged: break
    case .slot(let record): attributeValues[record.slot] = record.value
    case .values(let record): attributeValues = record.values
    }
    committedAttributes = .unchanged
  }
}
