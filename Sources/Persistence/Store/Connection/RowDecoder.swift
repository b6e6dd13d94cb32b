import DataModel
import Foundation
import SQLite

/// How a row of an entity's table becomes the values of its object: the entity's decode plan
/// compiled, once per store description, into steps that hold no references.
///
/// Decoding runs for every row a fetch reads, so each step is a few integers: walking them
/// retains nothing, and the common types are read straight from the statement into the new
/// row's values. Values of other types (Decimal, URI, externally stored binary data…) go through
/// ``StoredValueCodec`` with the attribute's ``StoredValueCodec/Kind``.
struct RowDecoder: Sendable {
  /// What one step reads.
  enum Operation: UInt8, Sendable {
    case integer, boolean, double, float, date, string, binary
    /// A UUID, copied as the 16 bytes it is stored as; only where a `UUID` is laid out as them
    /// (``AttributeValueCell/uuidPayloadIsItsBytes``), through ``general`` elsewhere.
    case uuid
    /// Any other attribute type, decoded through ``StoredValueCodec`` with `kinds[kind]`.
    case general
    /// The primary key of a to-one relationship's destination.
    case toOneKey
    /// The entity number of a to-one relationship's destination (when it has sub-entities).
    case toOneEntity
  }

  /// One column: where it is in the SELECT, which slot it fills and how.
  struct Step: Sendable {
    var position: Int32
    var slot: Int32
    /// For the operations that read a value of one type straight into its slot (all but
    /// ``Operation/general`` and the to-one ones), where the slot's payload is in a row of the
    /// layout's ``AttributeRowShape``: worked out once here, so that decoding a value neither
    /// looks the offset up nor checks the slot (``AttributeValueFiller/put(_:_:slot:payloadOffset:)``).
    var payloadOffset: Int32
    /// For ``Operation/general``, the index of the attribute's kind in `kinds`.
    var kind: Int32
    var operation: Operation
  }

  let steps: [Step]
  let kinds: [StoredValueCodec.Kind]
  /// The shape of the rows the steps fill: the layout's.
  let shape: AttributeRowShape
  /// Whether any step reads a destination's entity number (sub-entities at the other end).
  let readsEntityNumbers: Bool

  init(plan: [(position: Int, source: ColumnSource)], layout: ObjectLayout) {
    var steps: [Step] = []
    var kinds: [StoredValueCodec.Kind] = []
    let shape = layout.attributeRowShape
    for (position, source) in plan {
      switch source {
      case .attribute(let slot, let kind):
        let operation: Operation
        let payloadSize: Int
        switch kind.type {
        case .integer16, .integer32, .integer64: (operation, payloadSize) = (.integer, MemoryLayout<Int64>.size)
        case .boolean: (operation, payloadSize) = (.boolean, MemoryLayout<Bool>.size)
        case .double: (operation, payloadSize) = (.double, MemoryLayout<Double>.size)
        case .float: (operation, payloadSize) = (.float, MemoryLayout<Float>.size)
        case .date: (operation, payloadSize) = (.date, MemoryLayout<Date>.size)
        case .string: (operation, payloadSize) = (.string, MemoryLayout<String>.size)
        case .uuid:
          (operation, payloadSize) = AttributeValueCell.uuidPayloadIsItsBytes ? (.uuid, 16) : (.general, 0)
        case .binary, .transformable:
          (operation, payloadSize) = kind.storesBytesAsIs ? (.binary, MemoryLayout<Data>.size) : (.general, 0)
        default: (operation, payloadSize) = (.general, 0)
        }
        precondition(slot >= 0 && slot < shape.slotCount, "attribute slot \(slot) out of the layout's row")
        let payloadOffset = Int(shape.offsets[slot])
        // A slot too small for the payload in place (never so for a layout's typed row) decodes
        // through the general path, which boxes what does not fit.
        let fits = Int(shape.offsets[slot + 1]) - payloadOffset >= payloadSize
        steps.append(
          Step(
            position: Int32(position), slot: Int32(slot), payloadOffset: Int32(payloadOffset), kind: Int32(kinds.count),
            operation: fits ? operation : .general))
        kinds.append(kind)
      case .toOneKey(let slot):
        steps.append(
          Step(position: Int32(position), slot: Int32(slot), payloadOffset: -1, kind: -1, operation: .toOneKey))
      case .toOneEntity(let slot):
        steps.append(
          Step(position: Int32(position), slot: Int32(slot), payloadOffset: -1, kind: -1, operation: .toOneEntity))
      case .toOneOrder:
        continue
      }
    }
    self.steps = steps
    self.kinds = kinds
    self.shape = shape
    self.readsEntityNumbers = steps.contains { $0.operation == .toOneEntity }
  }

  /// Decodes the statement's current row, whose `Z_PK`, `Z_ENT` and `Z_OPT` were read already.
  ///
  /// A value the column cannot hold for its attribute (text in a date column…) is an error
  /// naming the object and the table, never a silently wrong value.
  ///
  /// This runs for every column of every row a fetch reads: each step switches on its
  /// operation alone and then checks the column's storage class, and a value of the step's type
  /// goes straight into its slot at the payload offset worked out in ``init(plan:layout:)``.
  /// Anything else (another storage class, a type without a fast path) goes through
  /// ``fillInGeneral(_:_:step:description:layout:objectID:tableName:)``.
  func decode(
    _ statement: SQLiteStatement, objectID: ObjectID, version: Int64, layout: ObjectLayout,
    description: StoreDescription, tableName: String, into rows: inout AttributeValueRows
  ) throws -> StoredRow {
    assert(layout.attributeRowShape === shape, "a decoder fills rows of its own layout")
    var toOne = OptionalSlots<ObjectID>()
    let attributes = try AttributeValues(shape: shape, in: &rows) { values in
      try steps.withUnsafeBufferPointer { steps in
        for step in steps {
          let column = statement.column(at: Int(step.position))
          let storage = column.storageClass
          if storage == .null { continue }
          let slot = Int(step.slot)
          let offset = Int(step.payloadOffset)
          switch step.operation {
          case .integer where storage == .integer:
            values.put(column.int64, .integer, slot: slot, payloadOffset: offset)
          case .boolean where storage == .integer:
            values.put(column.int64 != 0, .boolean, slot: slot, payloadOffset: offset)
          case .double where storage == .real || storage == .integer:
            values.put(column.double, .double, slot: slot, payloadOffset: offset)
          case .float where storage == .real || storage == .integer:
            values.put(Float(column.double), .float, slot: slot, payloadOffset: offset)
          case .date where storage == .real || storage == .integer:
            values.put(Date(timeIntervalSinceReferenceDate: column.double), .date, slot: slot, payloadOffset: offset)
          case .string where storage == .text:
            values.put(column.text, .string, slot: slot, payloadOffset: offset)
          case .binary where storage == .blob:
            values.put(column.data, .binary, slot: slot, payloadOffset: offset)
          case .uuid where storage == .blob:
            let stored = column.withBytes { bytes in
              guard bytes.count == 16 else { return false }
              values.putBytes(bytes, .uuid, slot: slot, payloadOffset: offset)
              return true
            }
            if !stored {
              try fillInGeneral(
                values, statement, step: step, description: description, layout: layout, objectID: objectID,
                tableName: tableName)
            }
          case .toOneKey:
            toOne[slot] = ObjectID(entity: layout.relationships[slot].destination, primaryKey: column.int64)
          case .toOneEntity:
            break
          default:
            try fillInGeneral(
              values, statement, step: step, description: description, layout: layout, objectID: objectID,
              tableName: tableName)
          }
        }
      }
    }
    if readsEntityNumbers {
      for step in steps where step.operation == .toOneEntity && !statement.isNull(at: Int(step.position)) {
        let slot = Int(step.slot)
        if let key = toOne[slot]?.primaryKey,
          let destination = description.entity(number: Int(statement.int64(at: Int(step.position))))
        {
          toOne[slot] = ObjectID(entity: destination, primaryKey: key)
        }
      }
    }
    return StoredRow(objectID: objectID, version: version, attributes: attributes, toOne: toOne)
  }

  /// Fills a step's slot with the value ``StoredValueCodec`` reads: the types without a fast
  /// path, and stored values of an unexpected storage class (which it converts or refuses).
  /// Kept out of line, as the path the common rows never take.
  @inline(never)
  private func fillInGeneral(
    _ values: AttributeValueFiller, _ statement: SQLiteStatement, step: Step, description: StoreDescription,
    layout: ObjectLayout, objectID: ObjectID, tableName: String
  ) throws {
    let value: AttributeValue?
    do {
      value = try StoredValueCodec.decode(
        statement.value(at: Int(step.position)), kind: kinds[Int(step.kind)],
        externalDataDirectory: description.externalDataDirectory)
    } catch {
      throw PersistenceError.storeFailure("\(layout.name) \(objectID.key): \(error) (table \(tableName))")
    }
    if let value { values.fill(Int(step.slot), with: value) }
  }
}
