/// Loading a JSON document of objects into a store in one save: `modelc store import`.
///
/// The document has the shape ``StoreExport`` writes: an object keyed by entity name, each an
/// array of objects with an `_id` — here a label that relationships in the same file refer to
/// (an export's URIs work as labels), optional for an object nothing refers to — and a key per
/// attribute and relationship. A missing key
/// leaves the model's default value; a reference that is no label of the file may name an object
/// already in the store by its URI (`x-coredata://<this store's UUID>/<Entity>/p<Z_PK>`). When
/// both sides of a relationship are given, they must agree.
///
/// Everything or nothing: every problem of the file is collected — unknown entities and keys,
/// values of the wrong kind, numbers that overflow their attribute, dangling references — then
/// the model's validation rules run in the save; any problem rolls the context back and nothing
/// is written.
public enum StoreImport {
  /// What an import inserted.
  public struct Summary: Sendable, Hashable {
    /// Objects inserted per entity name.
    public var insertedObjects: [String: Int]

    /// Every object inserted.
    public var total: Int { insertedObjects.values.reduce(0, +) }
  }

  /// Imports JSON text.
  ///
  /// ```swift
  /// let json = #"{"Task": [{"_id": "t1", "title": "Pack", "priority": 2}]}"#
  /// do {
  ///   let summary = try StoreImport.importJSON(json, into: container.newContext())
  ///   print("imported \(summary.total) objects")
  /// } catch {
  ///   for problem in error.problems { print(problem) }  // Task _id "t1", property 'priority': …
  /// }
  /// ```
  ///
  /// - Throws: ``StoreImportError`` (typed) listing every problem, each placed by entity,
  ///   `_id` and property: text that is not JSON, and what ``importDocument(_:into:)`` finds.
  ///   Nothing is written.
  @discardableResult
  public static func importJSON(_ text: String, into context: ObjectContext) throws(StoreImportError) -> Summary {
    let document: JSONValue
    PhaseTrace.record("import: parse")
    do {
      document = try JSONParser.parse(text)
    } catch {
      throw StoreImportError(problems: [ImportProblem(message: "the file is not valid JSON: \(error)")])
    }
    return try importDocument(document, into: context)
  }

  /// Imports a parsed document, saving `context` once; `context` must have no unsaved changes.
  ///
  /// - Throws: ``StoreImportError`` (typed) listing every problem: a context with unsaved
  ///   changes; unknown entities and keys, values of the wrong kind, numbers that overflow their
  ///   attribute, dangling references, inverses that disagree; then the model's validation
  ///   rules, and a save the store refuses. The context is rolled back and nothing is written.
  @discardableResult
  public static func importDocument(_ document: JSONValue, into context: ObjectContext) throws(StoreImportError)
    -> Summary
  {
    guard !context.hasChanges else {
      throw StoreImportError(problems: [
        ImportProblem(message: "the context has unsaved changes; import into a clean one")
      ])
    }
    var importer = Importer(context: context)
    PhaseTrace.record("import: insert")
    importer.insertObjects(document)
    importer.linkRelationships()
    importer.checkInverses()
    guard importer.problems.isEmpty else {
      // The model's rules too, so that one run lists everything to fix.
      importer.reportValidationFailures()
      context.rollback()
      throw StoreImportError(problems: importer.problems)
    }
    PhaseTrace.record("import: save")
    do {
      try context.save()
    } catch {
      importer.report(error)
      context.rollback()
      throw StoreImportError(problems: importer.problems)
    }
    return Summary(insertedObjects: importer.counts)
  }
}

/// The state of one import.
private struct Importer {
  /// A relationship value of the file, applied once every object exists.
  struct Link {
    var object: ManagedObject
    var label: String
    var name: String
    var slot: Int
    var value: JSONValue
    /// The destinations the file gives, once resolved.
    var expected: [ObjectID]? = nil
  }

  let context: ObjectContext
  var problems: [ImportProblem] = []
  var byLabel: [String: ManagedObject] = [:]
  var labels: [ObjectIdentifier: String] = [:]
  var links: [Link] = []
  var counts: [String: Int] = [:]

  init(context: ObjectContext) {
    self.context = context
  }

  var model: ModelVersion { context.model }

  mutating func problem(_ entity: String?, _ id: String?, _ property: String?, _ message: String) {
    problems.append(ImportProblem(entity: entity, objectID: id, property: property, message: message))
  }

  // MARK: - Objects and attributes

  mutating func insertObjects(_ document: JSONValue) {
    guard case .object(let entries) = document else {
      problem(nil, nil, nil, "the file must hold a JSON object keyed by entity name, not \(document.kindName)")
      return
    }
    var seenEntities = Set<String>()
    for (name, value) in entries {
      guard seenEntities.insert(name).inserted else {
        problem(name, nil, nil, "the entity is listed twice in the file")
        continue
      }
      guard let entity = model.entityID(named: name) else {
        let suggestion = EditDistance.suggestion(for: name, among: model.entities.map(\.name))
        problem(
          name, nil, nil, "the model has no entity '\(name)'\(suggestion.map { "; did you mean '\($0)'?" } ?? "")")
        continue
      }
      guard case .array(let elements) = value else {
        problem(name, nil, nil, "expected an array of objects, found \(value.kindName)")
        continue
      }
      if model[entity].isAbstract && !elements.isEmpty {
        problem(name, nil, nil, "the entity is abstract; list its objects under their sub-entities")
        continue
      }
      for (index, element) in elements.enumerated() {
        insertObject(element, index: index, entity: entity)
      }
    }
  }

  mutating func insertObject(_ element: JSONValue, index: Int, entity: EntityID) {
    let name = model[entity].name
    guard case .object(let pairs) = element else {
      problem(name, "#\(index + 1)", nil, "expected an object, found \(element.kindName)")
      return
    }
    // `_id` is a label for references: an object nothing refers to may leave it out, and is
    // then named by its place in its entity's array (`#3`) in problems. A reference to a label
    // no object has stays an error (`resolve`).
    var givenLabel: String?
    if let idValue = pairs.first(where: { $0.key == "_id" })?.value {
      guard case .string(let text) = idValue, !text.isEmpty else {
        problem(name, "#\(index + 1)", "_id", "expected a non-empty string, found \(idValue.kindName)")
        return
      }
      guard byLabel[text] == nil else {
        problem(name, text, "_id", "another object of the file has the same _id")
        return
      }
      givenLabel = text
    }
    let label = givenLabel ?? "#\(index + 1)"
    let object = context.insert(entity: entity)
    if let givenLabel { byLabel[givenLabel] = object }
    labels[ObjectIdentifier(object)] = label
    counts[name, default: 0] += 1
    let layout = object.layout
    var seenKeys: Set<String> = ["_id"]
    for (key, value) in pairs where key != "_id" {
      guard seenKeys.insert(key).inserted else {
        problem(name, label, key, "the key appears twice in the object")
        continue
      }
      if let slot = layout.attributeSlots[key] {
        let attribute = layout.attributes[slot]
        if attribute.attributeType == .composite, attribute.isPersistent {
          let (values, failures) = CompositeJSON.values(value, key: key, layout: layout)
          for failure in failures { problem(name, label, failure.keyPath, failure.message) }
          for (slot, value) in values { object.setAttributeValue(value, at: slot) }
          continue
        }
        guard attribute.isPersistent else {
          problem(
            name, label, key, "the attribute is not stored (transient or of type \(attribute.attributeType.rawValue))")
          continue
        }
        do {
          object.setAttributeValue(try AttributeJSON.value(value, for: attribute), at: slot)
        } catch {
          problem(name, label, key, error.message)
        }
      } else if let slot = layout.relationshipSlots[key] {
        guard layout.relationships[slot].relationship.isPersistent else {
          problem(name, label, key, "the relationship is transient; it is not stored")
          continue
        }
        links.append(Link(object: object, label: label, name: key, slot: slot, value: value))
      } else {
        let suggestion = EditDistance.suggestion(
          for: key, among: Array(layout.attributeSlots.keys) + Array(layout.relationshipSlots.keys))
        problem(
          name, label, key,
          "entity '\(name)' has no attribute or relationship '\(key)'\(suggestion.map { "; did you mean '\($0)'?" } ?? "")"
        )
      }
    }
  }

  // MARK: - Relationships

  /// The object a reference names: a label of the file, or the URI of an object of the store.
  mutating func resolve(_ reference: String, for link: Link) -> ManagedObject? {
    let entity = link.object.entityName
    let item = link.object.layout.relationships[link.slot]
    var found = byLabel[reference]
    if found == nil, let parts = ObjectJSON.parseIdentifier(reference), parts.storeUUID == context.storeUUID,
      let destination = model.entityID(named: parts.entityName)
    {
      found = try? context.existingObject(with: ObjectID(entity: destination, primaryKey: parts.primaryKey))
    }
    guard let found else {
      problem(
        entity, link.label, link.name, "refers to _id \"\(reference)\", which is no object of the file or the store")
      return nil
    }
    guard model.entity(found.layout.entity, isKindOf: item.destination) else {
      problem(
        entity, link.label, link.name,
        "refers to _id \"\(reference)\", a \(found.entityName); the relationship holds \(model[item.destination].name) objects"
      )
      return nil
    }
    return found
  }

  mutating func linkRelationships() {
    for index in links.indices {
      let link = links[index]
      let entity = link.object.entityName
      let relationship = link.object.layout.relationships[link.slot].relationship
      do {
        if relationship.isToMany {
          guard case .array(let references) = link.value else {
            problem(entity, link.label, link.name, "expected an array of _id strings, found \(link.value.kindName)")
            continue
          }
          var destinations: [ManagedObject] = []
          var seen = Set<ObjectIdentifier>()
          var resolved = true
          for reference in references {
            guard case .string(let text) = reference else {
              problem(entity, link.label, link.name, "expected _id strings in the array, found \(reference.kindName)")
              resolved = false
              continue
            }
            guard let destination = resolve(text, for: link) else {
              resolved = false
              continue
            }
            guard seen.insert(ObjectIdentifier(destination)).inserted else {
              problem(entity, link.label, link.name, "lists _id \"\(text)\" twice")
              resolved = false
              continue
            }
            destinations.append(destination)
          }
          guard resolved else { continue }
          try link.object.setObjects(destinations, forKey: link.name)
          links[index].expected = destinations.map(\.objectID)
        } else {
          switch link.value {
          case .null:
            try link.object.setObject(nil, forKey: link.name)
            links[index].expected = []
          case .string(let text):
            guard let destination = resolve(text, for: link) else { continue }
            try link.object.setObject(destination, forKey: link.name)
            links[index].expected = [destination.objectID]
          default:
            problem(entity, link.label, link.name, "expected an _id string or null, found \(link.value.kindName)")
          }
        }
      } catch {
        problem(entity, link.label, link.name, "\(error)")
      }
    }
  }

  /// Both sides of a relationship may be in the file; setting one side also sets the other, so
  /// a disagreement shows as a relationship that no longer holds what the file says.
  mutating func checkInverses() {
    for link in links {
      guard let expected = link.expected else { continue }
      let object = link.object
      let item = object.layout.relationships[link.slot]
      let actual: [ObjectID]
      if item.relationship.isToMany {
        actual = context.loadedToMany(of: object, slot: link.slot)?.ids ?? []
      } else {
        actual = object.toOneValues[link.slot].map { [$0] } ?? []
      }
      let agrees = item.relationship.isOrdered ? actual == expected : Set(actual) == Set(expected)
      guard !agrees else { continue }
      let inverse = item.inverseName.map { "the inverse relationship '\($0)'" } ?? "another relationship"
      let rendered = actual.map { "\"\(label(of: $0))\"" }.joined(separator: ", ")
      problem(
        object.entityName, link.label, link.name,
        "disagrees with \(inverse) as given for other objects of the file; together they make it [\(rendered)]")
    }
  }

  /// The file's label for an object, or its URI when it is an object of the store.
  func label(of id: ObjectID) -> String {
    if let object = context.registry[id], let label = labels[ObjectIdentifier(object)] { return label }
    return ObjectJSON.identifier(
      of: id, entityName: context.layouts[id.entity].name, storeUUID: context.storeUUID)
  }

  // MARK: - Save failures

  /// Adds the validation failures of the objects as they stand, except on properties that
  /// already have a problem of the file (a value that could not be read is also missing).
  mutating func reportValidationFailures() {
    guard let failures = try? context.validatePendingChanges() else { return }
    let reported = Set(problems.map { "\($0.objectID ?? "")\u{0}\($0.property ?? "")" })
    for failure in failures {
      let label = label(of: failure.objectID)
      guard !reported.contains("\(label)\u{0}\(failure.property)") else { continue }
      problem(
        failure.entity, label, failure.property, failure.message + (failure.value.map { " (value: \($0))" } ?? ""))
    }
  }

  mutating func report(_ error: SaveError) {
    switch error {
    case .validation(let failures):
      for failure in failures {
        problem(
          failure.entity, label(of: failure.objectID), failure.property,
          failure.message + (failure.value.map { " (value: \($0))" } ?? ""))
      }
    case .conflicts, .store:
      problem(nil, nil, nil, error.description)
    }
  }
}
