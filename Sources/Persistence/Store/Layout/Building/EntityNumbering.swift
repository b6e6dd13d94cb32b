import DataModel

/// Core Data's entity numbers (`Z_ENT`) for a model version.
///
/// Numbers come from a pre-order walk of the inheritance forest: root entities sorted by name
/// case-insensitively, each followed by its sub-entities, recursively, in the same order. Every
/// real store in the corpus and the 11 stores behind the reference doc agree (`docs/store-format.md`,
/// rule 1). A hierarchy therefore owns a contiguous range of numbers.
struct EntityNumbering {
  /// Entities in numbering order: `order[n - 1]` has number `n`.
  let order: [EntityID]
  /// The roots of the forest in numbering order: entities without a parent (and, in an invalid
  /// model, the first entity reached of an inheritance cycle).
  let roots: [EntityID]
  /// Each entity's sub-entities in name order, by entity index.
  let sortedSubentities: [[EntityID]]
  /// Each entity's number, by entity index.
  private let numbers: [Int]
  /// Each entity's root, by entity index.
  private let rootsByIndex: [EntityID]

  init(model: ModelVersion) {
    var sortedSubentities = model.entities.map { entity in
      entity.subentities.sorted { Self.precedes(model[$0].name, model[$1].name) }
    }
    let roots = model.entities.filter { $0.parent == nil }.map(\.id).sorted {
      Self.precedes(model[$0].name, model[$1].name)
    }
    var order: [EntityID] = []
    var walkRoots: [EntityID] = []
    var visited = Set<Int>()
    func visit(_ id: EntityID) {
      guard visited.insert(id.index).inserted else { return }
      order.append(id)
      for child in sortedSubentities[id.index] { visit(child) }
    }
    for root in roots {
      walkRoots.append(root)
      visit(root)
    }
    // Entities caught in an inheritance cycle (an invalid model) still get numbers.
    for entity in model.entities where !visited.contains(entity.id.index) {
      sortedSubentities[entity.id.index] = []
      walkRoots.append(entity.id)
      visit(entity.id)
    }
    var numbers = [Int](repeating: 0, count: model.entities.count)
    for (position, id) in order.enumerated() { numbers[id.index] = position + 1 }
    self.order = order
    self.roots = walkRoots
    self.numbers = numbers
    self.sortedSubentities = sortedSubentities
    var rootsByIndex = model.entities.map(\.id)
    func mark(_ id: EntityID, root: EntityID) {
      rootsByIndex[id.index] = root
      for child in sortedSubentities[id.index] { mark(child, root: root) }
    }
    for root in walkRoots { mark(root, root: root) }
    self.rootsByIndex = rootsByIndex
  }

  /// The entity's number.
  func number(of id: EntityID) -> Int { numbers[id.index] }

  /// The root whose table holds the entity's rows.
  func root(of id: EntityID) -> EntityID {
    rootsByIndex[id.index]
  }

  /// The entity followed by all its sub-entities, in numbering order.
  func hierarchy(of id: EntityID) -> [EntityID] {
    var result = [id]
    for child in sortedSubentities[id.index] { result += hierarchy(of: child) }
    return result
  }

  /// Core Data's name order for entities: case-insensitive, then by code unit to break ties.
  static func precedes(_ lhs: String, _ rhs: String) -> Bool {
    let left = Array(lhs.lowercased().utf16)
    let right = Array(rhs.lowercased().utf16)
    if left != right { return left.lexicographicallyPrecedes(right) }
    return lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
  }
}
