import DataModel

/// The indexes one entity declares, named and spelled as Core Data creates them, in Core Data's
/// order: indexed properties, legacy compound indexes, fetch indexes, uniqueness constraints.
///
/// - An *indexed property* is one flagged `indexed="YES"` or the only element of an ascending
///   binary fetch index. Core Data then creates `Z_<Entity>_<property>` in addition to the fetch
///   index itself: LoopKit has `Z_PumpEvent_date` beside `Z_PumpEvent_byDateIndex`, but no
///   `Z_Reservoir_date` for Reservoir's descending `byDateIndex`, and none for properties that
///   only appear in multi-element indexes. They come in ``PropertyHashOrder``.
/// - Fetch indexes: `Z_<Entity>_<index name>`, each element `COLLATE BINARY ASC|DESC`.
/// - Uniqueness constraints: `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_<property>_…`.
/// - Legacy compound indexes: `Z_<Entity>_<property>_…` [unverified: no store has one].
///
/// Elements that are expressions other than a plain property name, and R-tree indexes, are left
/// out with a reason (``UnsupportedIndex``) [unverified: no store has one]. Elements naming a
/// to-many relationship (Xcode accepts them) are skipped, the index made of the rest, and left
/// out when nothing remains [unverified: the conservative reading].
struct IndexBuilder {
  let model: ModelVersion
  let entity: EntityID
  let mapping: EntityStoreLayout
  private(set) var unsupported: [UnsupportedIndex] = []

  init(model: ModelVersion, entity: EntityID, mapping: EntityStoreLayout) {
    self.model = model
    self.entity = entity
    self.mapping = mapping
  }

  private var description: EntityDescription { model[entity] }
  private var prefix: String { "Z_\(description.name)_" }

  mutating func indexes() -> [IndexDefinition] {
    var result = indexedProperties()
    result += compoundIndexes()
    result += fetchIndexes()
    result += uniquenessIndexes()
    return result
  }

  /// The column of a property of this entity (attribute, or a to-one's foreign key).
  private func column(for property: String) -> String? {
    mapping.column(forAttribute: property)?.column ?? mapping.toOne(named: property)?.foreignKeyColumn
  }

  private func index(_ name: String, _ columns: [IndexColumn], unique: Bool = false, kind: IndexDefinition.Kind)
    -> IndexDefinition
  {
    IndexDefinition(name: name, table: mapping.tableName, columns: columns, isUnique: unique, kind: kind)
  }

  private func indexedProperties() -> [IndexDefinition] {
    var names: [String] = []
    names += description.attributes.filter { $0.isIndexed && $0.isPersistent }.map(\.name)
    names += description.relationships.filter { $0.isIndexed && $0.isPersistent && !$0.isToMany }.map(\.name)
    for fetchIndex in description.fetchIndexes where fetchIndex.elements.count == 1 {
      let element = fetchIndex.elements[0]
      if let property = element.property, element.isAscending, element.type == .binary {
        names.append(property)
      }
    }
    var seen: Set<String> = []
    let selected = names.filter { column(for: $0) != nil && seen.insert($0).inserted }
    var allNames: [String] = []
    for id in model.ancestors(of: entity) + [entity] {
      allNames += model[id].attributes.map(\.name) + model[id].relationships.map(\.name)
      allNames += model[id].fetchedProperties.map(\.name)
    }
    return PropertyHashOrder.order(selected: selected, allNames: allNames).compactMap { name in
      column(for: name).map {
        index(prefix + name, [IndexColumn(column: $0, order: .ascending)], kind: .indexedProperty)
      }
    }
  }

  private mutating func compoundIndexes() -> [IndexDefinition] {
    var result: [IndexDefinition] = []
    for compound in description.compoundIndexes where !compound.properties.isEmpty {
      let name = prefix + compound.properties.joined(separator: "_")
      let columns = compound.properties.compactMap(column(for:))
      guard columns.count == compound.properties.count else {
        unsupported.append(UnsupportedIndex(entity: entity, name: name, reason: "a property has no column"))
        continue
      }
      result.append(index(name, columns.map { IndexColumn(column: $0, order: .ascending) }, kind: .compound))
    }
    return result
  }

  private mutating func fetchIndexes() -> [IndexDefinition] {
    var result: [IndexDefinition] = []
    for fetchIndex in description.fetchIndexes {
      let name = prefix + fetchIndex.name
      var columns: [IndexColumn] = []
      var reason: String?
      for element in fetchIndex.elements {
        // A to-many relationship has no column: Xcode accepts it in a fetch index, and the
        // store's index is made of the other elements [unverified: the conservative reading].
        if let property = element.property ?? plainKeyPath(element.expression), isToMany(property) {
          continue
        }
        guard element.type == .binary else {
          reason = "\(element.type.xmlValue) index elements are not supported"
          break
        }
        guard let property = element.property ?? plainKeyPath(element.expression), let found = column(for: property)
        else {
          reason =
            element.expression.map { "the expression element '\($0)' is not a stored property" }
            ?? "an element names no stored property"
          break
        }
        columns.append(IndexColumn(column: found, order: element.isAscending ? .ascending : .descending))
      }
      if let reason {
        unsupported.append(UnsupportedIndex(entity: entity, name: name, reason: reason))
      } else if !columns.isEmpty {
        result.append(index(name, columns, kind: .fetchIndex))
      } else if !fetchIndex.elements.isEmpty {
        unsupported.append(
          UnsupportedIndex(entity: entity, name: name, reason: "every element names a to-many relationship"))
      }
    }
    return result
  }

  /// Whether a name is a to-many relationship of this entity (inherited ones included).
  private func isToMany(_ property: String) -> Bool {
    mapping.toMany(named: property) != nil
      || (model.ancestors(of: entity) + [entity]).contains { id in
        model[id].relationships.contains { $0.name == property && $0.isToMany }
      }
  }

  /// An expression that is just a property name (`title`), else nil.
  private func plainKeyPath(_ expression: String?) -> String? {
    guard let expression else { return nil }
    let trimmed = expression.trimmingSpaces()
    guard StoreIdentifier.isSafeBare(trimmed) else { return nil }
    return trimmed
  }

  private mutating func uniquenessIndexes() -> [IndexDefinition] {
    var result: [IndexDefinition] = []
    for constraint in description.uniquenessConstraints where !constraint.properties.isEmpty {
      let name = prefix + "UNIQUE_" + constraint.properties.joined(separator: "_")
      let columns = constraint.properties.compactMap(column(for:))
      guard columns.count == constraint.properties.count else {
        unsupported.append(
          UnsupportedIndex(entity: entity, name: name, reason: "a constrained property has no single column"))
        continue
      }
      result.append(
        index(
          name, columns.map { IndexColumn(column: $0, order: .ascending) }, unique: true, kind: .uniquenessConstraint))
    }
    return result
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[start...end])
  }
}
