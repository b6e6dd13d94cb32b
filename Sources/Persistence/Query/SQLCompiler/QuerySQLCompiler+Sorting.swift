import SQLite

/// Sort descriptors as ORDER BY terms, matching ``FetchSortDescriptor``'s in-memory order.
extension QuerySQLCompiler {
  /// The ORDER BY terms of sort descriptors, or nil when one does not compile (a key path
  /// through a to-many relationship, which the evaluator rejects, or a decimal, whose stored
  /// forms SQLite does not order numerically).
  ///
  /// Keys are attributes of the entity or of to-one destinations (NULL when the relationship
  /// is empty). SQLite puts NULL first in ascending order and last in descending order, as the
  /// in-memory sort does nil; strings order by their bytes (code points), or by
  /// `modelc_fold` for case- and diacritic-insensitive descriptors; data and UUIDs by their
  /// bytes. A to-one relationship itself sorts by its destination's identity URL, as its
  /// ``PredicateEvaluable/predicateIdentity`` does. The caller appends the `t.Z_PK` tie-break.
  func compile(_ descriptors: [FetchSortDescriptor]) -> SQLiteSQL? {
    guard !descriptors.isEmpty else { return nil }
    var terms: [SQLiteSQL] = []
    for descriptor in descriptors {
      guard let value = read(descriptor.keyPath, of: .object(root)) else { return nil }
      let direction: SQLiteSQL = descriptor.ascending ? " ASC" : " DESC"
      switch value {
      case .scalar(let scalar):
        guard scalar.kind != .decimal else { return nil }
        terms.append(folded(scalar, descriptor.options) + direction)
      case .object(let reference):
        terms.append(identity(of: reference) + direction)
      case .constant(.null):
        continue
      default:
        return nil
      }
    }
    return terms.isEmpty ? "t.Z_PK" : terms.joined(separator: ", ")
  }

  /// An object's identity URL (`x-modelc-object:///<entity index>/<key>`) as text, NULL
  /// without an object.
  private func identity(of reference: SQLObjectReference) -> SQLiteSQL {
    func prefix(_ entity: EntityID) -> SQLiteSQL {
      "\("x-modelc-object:///\(entity.index)/")"
    }
    let entityPrefix: SQLiteSQL
    if let number = reference.entityNumber {
      var cases: SQLiteSQL = "CASE " + number
      for entityNumber in schema[reference.entity].entityNumbersInHierarchy {
        guard let mapping = schema.mapping(forEntityNumber: entityNumber) else { continue }
        cases = cases + " WHEN \(Int64(entityNumber)) THEN " + prefix(mapping.entity)
      }
      entityPrefix = cases + " END"
    } else {
      entityPrefix = prefix(reference.entity)
    }
    return "CASE WHEN " + reference.key + " IS NULL THEN NULL ELSE " + entityPrefix + " || " + reference.key + " END"
  }
}
