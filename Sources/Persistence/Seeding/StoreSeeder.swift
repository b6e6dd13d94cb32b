/// Fills a store with deterministic synthetic data that is valid for its model: `modelc store
/// seed`, and the data of migration tests and benchmarks.
///
/// Every concrete entity gets `rowsPerEntity` new objects — more where a relationship needs them
/// (a destination entity whose to-one inverse takes each of its objects once must have as many
/// objects as there are sources that require one) — in the model's entity order, saved in one
/// transaction. Attribute values honour the model's rules (`AttributeSeeder`): required
/// values, minimum and maximum values and lengths, simple regular expressions, and uniqueness
/// constraints — one attribute of each constraint (the first that can take many values) is made
/// distinct across the constrained entity and its sub-entities, and from the values already in
/// the store; a constraint on one to-one relationship alone links each destination at most
/// once. Relationships link the new objects among themselves within every count both sides
/// allow (`RelationshipSeeder`).
///
/// The same seed on the same store gives the same objects, values, links and primary keys:
/// each attribute and relationship draws from its own random stream of the seed.
public struct StoreSeeder: Sendable {
  /// New objects per concrete entity.
  public var rowsPerEntity: Int
  /// The seed of every random stream.
  public var seed: UInt64

  /// A seeder of `rowsPerEntity` objects per concrete entity, from `seed`.
  public init(rowsPerEntity: Int = 100, seed: UInt64 = 0) {
    self.rowsPerEntity = rowsPerEntity
    self.seed = seed
  }

  /// Inserts and saves the objects; returns how many were inserted per entity name. On failure
  /// nothing is saved and the context is rolled back.
  ///
  /// ```swift
  /// let counts = try StoreSeeder(rowsPerEntity: 1_000, seed: 42).seed(container.newContext())
  /// ```
  ///
  /// - Throws: ``SeedError`` (typed), naming the entity and property where it can: a context
  ///   with unsaved changes, a negative row count, a rule of the model no generated value can
  ///   meet (a pattern or range the seeder cannot satisfy, relationship counts that cannot all
  ///   hold), or a save that fails (with its reason).
  @discardableResult
  public func seed(_ context: ObjectContext) throws(SeedError) -> [String: Int] {
    guard !context.hasChanges else {
      throw SeedError(message: "the context has unsaved changes; seed a clean one")
    }
    guard rowsPerEntity >= 0 else { throw SeedError(message: "the number of rows cannot be negative") }
    do throws(SeedError) {
      let counts = try insertObjects(context)
      do {
        try context.save()
      } catch {
        throw SeedError(
          message:
            "the seeded objects break a rule of the model the seeder does not satisfy, so nothing was saved: \(error)")
      }
      return counts
    } catch {
      context.rollback()
      throw error
    }
  }

  // MARK: - Objects

  private func insertObjects(_ context: ObjectContext) throws(SeedError) -> [String: Int] {
    let model = context.model
    let plan = try UniquenessPlan(model: model, context: context)
    var domains = plan.domains
    let rows = try plannedRows(model)
    var objects: [[ManagedObject]] = Array(repeating: [], count: model.entities.count)
    var counts: [String: Int] = [:]
    for entity in model.entities where !entity.isAbstract {
      let layout = context.layouts[entity.id]
      var seeders: [(slot: Int, seeder: AttributeSeeder, domain: String?)] = []
      for slot in layout.persistentAttributeSlots {
        let attribute = layout.attributes[slot]
        guard attribute.attributeType != .composite, !attribute.isDerived || !attribute.isOptional else { continue }
        seeders.append(
          (
            slot, try AttributeSeeder(entity: entity.name, attribute: attribute, seed: seed),
            plan.domain(of: attribute.name, in: entity.id)
          ))
      }
      var made: [ManagedObject] = []
      made.reserveCapacity(rows[entity.id.index])
      for _ in 0..<rows[entity.id.index] {
        let object = context.insert(entity: entity.id)
        for index in seeders.indices {
          let key = seeders[index].domain
          var domain = key.flatMap { domains[$0] }
          let value = try seeders[index].seeder.next(distinctIn: &domain)
          if let key { domains[key] = domain }
          object.setAttributeValue(value, at: seeders[index].slot)
        }
        made.append(object)
      }
      objects[entity.id.index] = made
      counts[entity.name] = rows[entity.id.index]
    }
    try link(objects, model: model, plan: plan)
    return counts
  }

  /// Objects per concrete entity (by index): `rowsPerEntity`, raised until every relationship
  /// can be linked within the counts of both its sides.
  private func plannedRows(_ model: ModelVersion) throws(SeedError) -> [Int] {
    var rows = model.entities.map { $0.isAbstract ? 0 : rowsPerEntity }
    guard rowsPerEntity > 0 else { return rows }
    func concrete(_ entity: EntityID) -> [Int] {
      ([entity] + model.descendants(of: entity)).map(\.index).filter { !model.entities[$0].isAbstract }
    }
    func total(_ members: [Int]) -> Int { members.reduce(0) { $0 + rows[$1] } }
    /// Adds `missing` objects to the entities, spread round-robin.
    func grow(_ members: [Int], by missing: Int) {
      guard !members.isEmpty else { return }
      for index in 0..<missing { rows[members[index % members.count]] += 1 }
    }
    let limit = max(rowsPerEntity, 1) * 1000
    for _ in 0..<50 {
      var changed = false
      for entity in model.entities {
        for relationship in entity.relationships where relationship.isPersistent {
          guard let destination = relationship.destination else { continue }
          let source = RelationshipSeeder.Bounds(relationship)
          let target = relationship.inverse.map { RelationshipSeeder.Bounds(model[$0]) } ?? .unbounded
          let sources = concrete(entity.id)
          let targets = concrete(relationship.inverse?.entity ?? destination).filter {
            model.entity(EntityID($0), isKindOf: destination)
          }
          for (from, to, fromBounds, toBounds) in [
            (sources, targets, source, target), (targets, sources, target, source),
          ] {
            guard !fromBounds.allowsNone, toBounds.maximum != .max, !to.isEmpty else { continue }
            // Every object of `from` needs `minimum` links; each of `to` takes at most `maximum`.
            let needed = max(
              fromBounds.minimum, (total(from) * fromBounds.minimum + toBounds.maximum - 1) / toBounds.maximum)
            if total(to) < needed {
              grow(to, by: needed - total(to))
              changed = true
            }
          }
        }
      }
      if rows.contains(where: { $0 > limit }) {
        throw SeedError(
          message: "the model's relationship counts need ever more objects; no finite number of rows satisfies them")
      }
      if !changed { return rows }
    }
    return rows
  }

  // MARK: - Relationships

  private func link(_ objects: [[ManagedObject]], model: ModelVersion, plan: UniquenessPlan) throws(SeedError) {
    var handled = Set<RelationshipID>()
    for entity in model.entities {
      for (index, relationship) in entity.relationships.enumerated() where relationship.isPersistent {
        let id = RelationshipID(entity: entity.id, index: index)
        guard handled.insert(id).inserted, let destination = relationship.destination else { continue }
        if let inverse = relationship.inverse { handled.insert(inverse) }
        let sources = ([entity.id] + model.descendants(of: entity.id)).flatMap { objects[$0.index] }
        let destinations = ([destination] + model.descendants(of: destination)).flatMap { objects[$0.index] }
        let inverse = relationship.inverse.map { model[$0] }
        let inverseOwner = relationship.inverse?.entity
        let destinationBounds = destinations.map { object -> RelationshipSeeder.Bounds in
          guard let inverse, let inverseOwner, model.entity(object.layout.entity, isKindOf: inverseOwner) else {
            return plan.isUniqueToOne(id) ? .init(minimum: 1, maximum: 1, allowsNone: true) : .unbounded
          }
          var bounds = RelationshipSeeder.Bounds(inverse)
          if plan.isUniqueToOne(id) { bounds.maximum = 1 }
          return bounds
        }
        var sourceBounds = RelationshipSeeder.Bounds(relationship)
        if let inverseID = relationship.inverse, plan.isUniqueToOne(inverseID) { sourceBounds.maximum = 1 }
        var seeder = RelationshipSeeder(
          entity: entity.name, relationship: relationship, inverseName: inverse?.name,
          random: SeedRandom(seed: seed, stream: "\(entity.name).\(relationship.name) links"))
        let pairs = try seeder.plan(
          sourceCount: sources.count, source: sourceBounds, destinations: destinationBounds,
          sameObject: { sources[$0] === destinations[$1] })
        do {
          for (source, target) in pairs {
            if relationship.isToMany {
              try sources[source].addObject(destinations[target], forKey: relationship.name)
            } else {
              try sources[source].setObject(destinations[target], forKey: relationship.name)
            }
          }
        } catch {
          throw SeedError(entity: entity.name, property: relationship.name, message: "\(error)")
        }
      }
    }
  }
}

/// Which attribute of each uniqueness constraint the seeder makes distinct, and the values the
/// store already holds for it.
private struct UniquenessPlan {
  /// Domains by key (`Entity.attribute` of the constraining entity).
  var domains: [String: AttributeSeeder.UniqueDomain] = [:]
  /// For each entity (by index) and attribute name, its domain's key.
  private var keys: [Int: [String: String]] = [:]
  /// To-one relationships whose destinations may be linked at most once.
  private var uniqueToOnes = Set<RelationshipID>()

  init(model: ModelVersion, context: ObjectContext) throws(SeedError) {
    for entity in model.entities {
      for constraint in entity.uniquenessConstraints {
        let attributes = constraint.properties.compactMap { name in
          model.allAttributes(of: entity.id).first { $0.name == name }
        }
        if let chosen = attributes.first(where: { $0.attributeType != .boolean }) ?? attributes.first {
          let key = "\(entity.name).\(chosen.name)"
          var domain = AttributeSeeder.UniqueDomain()
          domain.used = try Self.storedValues(of: chosen.name, entity: entity.name, context: context)
          domains[key] = domain
          for member in [entity.id] + model.descendants(of: entity.id) {
            keys[member.index, default: [:]][chosen.name] = key
          }
        } else if constraint.properties.count == 1,
          let found = model.allRelationships(of: entity.id).first(where: {
            $0.relationship.name == constraint.properties[0]
          }),
          !found.relationship.isToMany
        {
          uniqueToOnes.insert(found.id)
        } else {
          throw SeedError(
            entity: entity.name, property: constraint.properties.joined(separator: ", "),
            message: "the uniqueness constraint has no attribute the seeder can make distinct")
        }
      }
    }
  }

  private static func storedValues(of attribute: String, entity: String, context: ObjectContext) throws(SeedError)
    -> Set<AttributeValue>
  {
    var request = FetchRequest<ManagedObject>(entityName: entity)
    request.propertiesToFetch = [attribute]
    do {
      return Set(try context.fetchDictionaries(request).compactMap { $0[attribute]?.attributeValue })
    } catch {
      throw SeedError(entity: entity, property: attribute, message: "cannot read the values in the store: \(error)")
    }
  }

  func domain(of attribute: String, in entity: EntityID) -> String? {
    keys[entity.index]?[attribute]
  }

  func isUniqueToOne(_ relationship: RelationshipID) -> Bool {
    uniqueToOnes.contains(relationship)
  }
}
