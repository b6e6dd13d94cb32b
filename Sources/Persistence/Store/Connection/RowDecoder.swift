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
    case integer, boolean, double, float, date, string, uuid, binary
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
    var operation: Operation
    /// For ``Operation/general``, the index of the attribute's kind in `kinds`.
    var kind: Int32
  }

  let steps: [Step]
  let kinds: [StoredValueCodec.Kind]
  /// Whether any step reads a destination's entity number (sub-entities at the other end).
  let readsEntityNumbers: Bool

  init(plan: [(position: Int, source: ColumnSource)], layout: ObjectLayout) {
    var steps: [Step] = []
    var kinds: [StoredValueCodec.Kind] = []
    for (position, source) in plan {
      switch source {
      case .attribute(let slot, let kind):
        let operation: Operation
        switch kind.type {
        case .integer16, .integer32, .integer64: operation = .integer
        case .boolean: operation = .boolean
        case .double: operation = .double
        case .float: operation = .float
        case .date: operation = .date
        case .string: operation = .string
        case .uuid: operation = .uuid
        case .binary, .transformable: operation = kind.storesBytesAsIs ? .binary : .general
        default: operation = .general
        }
        steps.append(Step(position: Int32(position), slot: Int32(slot), operation: operation, kind: Int32(kinds.count)))
        kinds.append(kind)
      case .toOneKey(let slot):
        steps.append(Step(position: Int32(position), slot: Int32(slot), operation: .toOneKey, kind: -1))
      case .toOneEntity(let slot):
        steps.append(Step(position: Int32(position), slot: Int32(slot), operation: .toOneEntity, kind: -1))
      case .toOneOrder:
        continue
      }
    }
    self.steps = steps
    self.kinds = kinds
    self.readsEntityNumbers = steps.contains { $0.operation == .toOneEntity }
  }

  /// Decodes the statement's current row, whose `Z_PK`, `Z_ENT` and `Z_OPT` were read already.
  ///
  /// A value the column cannot hold for its attribute (text in a date column…) is an error
  /// naming the object and the table, never a silently wrong value.
  func decode(
    _ statement: SQLiteStatement, objectID: ObjectID, version: Int64, layout: ObjectLayout,
    description: StoreDescription, tableName: String, into rows: inout AttributeValueRows
  ) throws -> StoredRow {
    var toOne = OptionalSlots<ObjectID>()
    let attributes = try AttributeValues(shape: layout.attributeRowShape, in: &rows) { values in
      for step in steps {
        let position = Int(step.position)
        let slot = Int(step.slot)
        let column = statement.column(at: position)
        let storage = column.storageClass
        if storage == .null { continue }
        switch (step.operation, storage) {
        case (.integer, .integer): values.fill(slot, with: .integer(column.int64))
        case (.boolean, .integer): values.fill(slot, with: .boolean(column.int64 != 0))
        case (.double, .real), (.double, .integer): values.fill(slot, with: .double(column.double))
        case (.float, .real), (.float, .integer): values.fill(slot, with: .float(Float(column.double)))
        case (.date, .real), (.date, .integer):
          values.fill(slot, with: .date(Date(timeIntervalSinceReferenceDate: column.double)))
        case (.string, .text): values.fill(slot, with: .string(column.text))
        case (.binary, .blob): values.fill(slot, with: .binary(column.data))
        case (.toOneKey, _):
          toOne[slot] = ObjectID(entity: layout.relationships[slot].destination, primaryKey: column.int64)
        case (.toOneEntity, _):
          break
        default:
          if step.operation == .uuid, storage == .blob, let uuid = column.withBytes(Self.uuid) {
            values.fill(slot, with: .uuid(uuid))
          } else {
            let value = try decodeInGeneral(
              statement, step: step, description: description, layout: layout, objectID: objectID, tableName: tableName)
            if let value { values.fill(slot, with: value) }
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

  /// A value read through ``StoredValueCodec``: the types without a fast path, and stored
  /// values of an unexpected storage class (which it converts or refuses).
  private func decodeInGeneral(
    _ statement: SQLiteStatement, step: Step, description: StoreDescription, layout: ObjectLayout,
    objectID: ObjectID, tableName: String
  ) throws -> AttributeValue? {
    do {
      return try StoredValueCodec.decode(
        statement.value(at: Int(step.position)), kind: kinds[Int(step.kind)],
        externalDataDirectory: description.externalDataDirectory)
    } catch {
      throw PersistenceError.storeFailure("\(layout.name) \(objectID.key): \(error) (table \(tableName))")
    }
  }

  /// A UUID from a 16-byte blob; nil for any other length.
  private static func uuid(_ bytes: UnsafeRawBufferPointer) -> UUID? {
    guard bytes.count == 16 else { return nil }
    return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
  }
}
