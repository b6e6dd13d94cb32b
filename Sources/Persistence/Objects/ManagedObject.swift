import Foundation

/// An object of an entity, living in one ``ObjectContext``: the runtime counterpart of Core
/// Data's `NSManagedObject`.
///
/// Generated entity classes subclass it and add typed properties; without them, the dynamic
/// accessors (`value(forKey:)`, `object(forKey:)`, `objects(forKey:)`) reach every property by
/// name. An object belongs to the context that made or fetched it and is not `Sendable`: pass
/// its ``objectID`` to another context instead. Identity is the instance: a context never holds
/// two objects for one row.
///
/// Its members are `final` (but ``description``): a subclass adds properties and does not
/// replace the object's own, and a call from another module — a generated class, users' code —
/// then goes straight to the member, or inlines it, where a member of an `open` class that is
/// not final is called through the class's table (reading ``layout`` through it cost a
/// retain and two releases a row in a fetch's read loop).
open class ManagedObject: Identifiable, Hashable, CustomStringConvertible {
  /// The object's identity; temporary until its first save.
  ///
  /// Written only by its context (when a save makes it permanent), and read for every fetched
  /// row: the run-time exclusivity checks are left out, as they are for the storage below.
  @exclusivity(unchecked) public internal(set) final var objectID: ObjectID
  /// The entity's layout.
  @inlinable public final var layout: ObjectLayout { unmanagedLayout.takeUnretainedValue() }
  /// The layout, not retained by the object: its context link holds every layout of the model,
  /// and the object holds the link, so the layout lives as long as the object without a retain
  /// and a release for each object a fetch makes. Code on the hot paths reads it through
  /// `_withUnsafeGuaranteedRef`, which retains nothing (reading ``layout`` into a variable
  /// retains it for as long as the variable lives).
  @usableFromInline final let unmanagedLayout: Unmanaged<ObjectLayout>
  /// The context the object belongs to; nil once the context is gone.
  public final var context: ObjectContext? { contextLink.context }
  let contextLink: ContextLink

  // Storage, managed by the context. Only the context's code touches it, on the context's
  // isolation, and never holds an access open across a call that could reach the same object:
  // the run-time exclusivity checks, paid on every read of every value, are left out.
  //
  // The values take ten bytes (a storage and a row); the three small fields after them fill
  // the rest of their word (stored properties are laid out in the order they are declared).
  @usableFromInline @exclusivity(unchecked) final var attributeValues: AttributeValues
  @exclusivity(unchecked) var lifecycle: Lifecycle
  @usableFromInline @exclusivity(unchecked) final var isFaultStorage: Bool
  /// The object's slot in its context's ``ChangedObjects``; -1 while it has no pending changes.
  /// 32 bits, beside the values and the two flags above: with the other fields, objects stay
  /// within the 120 bytes that the C allocator frees through its fast bins (see
  /// ``CommittedAttributes``).
  @exclusivity(unchecked) var changeSlot: Int32 = -1
  /// The attribute values as last read or saved, as what differs from `attributeValues`.
  @exclusivity(unchecked) var committedAttributes: CommittedAttributes
  @exclusivity(unchecked) var toOneValues: OptionalSlots<ObjectID>
  @exclusivity(unchecked) var committedToOneValues: OptionalSlots<ObjectID>
  /// To-many values, committed ones and prefetched destinations; nil while there are none
  /// (``ToManyState``, read through ``toManyValues``, ``committedToManyValues`` and
  /// ``prefetched``).
  @exclusivity(unchecked) var toManyState: ToManyState?
  /// `Z_OPT` of the row as last read or written.
  @exclusivity(unchecked) var storedVersion: Int64

  enum Lifecycle {
    case inserted
    case persisted
    case deleted
    /// Deleted and saved, or found missing from the store.
    case gone
  }

  /// Creates an object; only the context calls this, through ``ObjectConstruction``.
  public required init(_ construction: ObjectConstruction) {
    self.objectID = construction.objectID
    assert(
      construction.context.link.layouts[construction.layout.entity] === construction.layout,
      "an object's layout must be one of its context's layouts")
    self.unmanagedLayout = Unmanaged.passUnretained(construction.layout)
    self.contextLink = construction.context.link
    // A fetched row's own values; otherwise shared values of the layout, copied on first write.
    if let pointer = construction.row {
      // The row is moved out: its values become the object's without a retain and a release
      // of each for the move.
      let row = pointer.move()
      self.attributeValues = row.attributes
      self.committedAttributes = .unchanged
      self.toOneValues = row.toOne
      self.committedToOneValues = row.toOne
      self.storedVersion = row.version
    } else {
      let layout = construction.layout
      self.attributeValues = construction.isInserted ? layout.defaultAttributeValues : layout.emptyAttributeValues
      // An inserted object's committed values are empty; a fault's are its (empty) values.
      self.committedAttributes = construction.isInserted ? .values(layout.insertedCommittedValues) : .unchanged
      self.toOneValues = OptionalSlots()
      self.committedToOneValues = OptionalSlots()
      self.storedVersion = 0
    }
    self.toManyState = construction.isInserted ? construction.layout.insertedToManyState : nil
    self.lifecycle = construction.isInserted ? .inserted : .persisted
    self.isFaultStorage = construction.isFault && construction.row == nil
  }

  public final var id: ObjectID { objectID }

  public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

  public final func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }

  /// The entity's name.
  public final var entityName: String { layout.name }

  /// Whether the object was inserted and not saved yet.
  public final var isInserted: Bool { lifecycle == .inserted }

  /// Whether the object was deleted (and not saved yet, or saved).
  public final var isDeleted: Bool { lifecycle == .deleted || lifecycle == .gone }

  /// Whether the object's values have not been loaded yet.
  public final var isFault: Bool { isFaultStorage }

  /// Whether the object has changes that a save would write.
  public final var hasChanges: Bool {
    switch lifecycle {
    case .inserted, .deleted: return true
    case .gone: return false
    case .persisted: return isUpdated
    }
  }

  /// Whether a persisted object has changed values.
  public final var isUpdated: Bool {
    guard lifecycle == .persisted, !isFaultStorage else { return false }
    if attributesDiffer || toOneValues != committedToOneValues { return true }
    guard let state = toManyState else { return false }
    for slot in state.values.indices where state.values[slot] != state.committed[slot] {
      if state.values[slot] != nil { return true }
    }
    return false
  }

  /// The changed properties and their new values (relationships as object IDs).
  public final var changedValues: [String: String] {
    var changes: [String: String] = [:]
    for (slot, attribute) in layout.attributes.enumerated()
    where attributeDiffers(at: slot) {
      changes[attribute.name] = attributeValues[slot].map { "\($0)" } ?? "nil"
    }
    for (slot, relationship) in layout.relationships.enumerated() {
      if relationship.relationship.isToMany {
        if let value = toManyValues[slot], value != committedToManyValues[slot] {
          changes[relationship.relationship.name] = "\(value.ids.count) objects"
        }
      } else if toOneValues[slot] != committedToOneValues[slot] {
        changes[relationship.relationship.name] = toOneValues[slot].map { "\($0)" } ?? "nil"
      }
    }
    return changes
  }

  open var description: String {
    "<\(layout.name) \(objectID)\(isFault ? " (fault)" : "")>"
  }

  // MARK: - Attributes

  /// The value of an attribute.
  public final func value(forKey key: String) throws(ObjectAccessError) -> AttributeValue? {
    guard let slot = layout.attributeSlots[key] else {
      throw ObjectAccessError.unknownAttribute(key, entity: layout.name)
    }
    return attributeValue(at: slot)
  }

  /// Sets the value of an attribute; the value must be of the attribute's type.
  public final func setValue(_ value: AttributeValue?, forKey key: String) throws(ObjectAccessError) {
    guard let slot = layout.attributeSlots[key] else {
      throw ObjectAccessError.unknownAttribute(key, entity: layout.name)
    }
    let type = layout.attributeTypes[slot]
    if let value, !AttributeValueTypeCheck.matches(value, type) {
      throw ObjectAccessError.typeMismatch(attribute: key, entity: layout.name, expected: type, value: value)
    }
    setAttributeValue(value, at: slot)
  }

  /// The value in an attribute slot (loading the object first when it is a fault).
  ///
  /// Inlinable, as the generated properties' reads are: code reading many objects by slot pays
  /// no call for a loaded object.
  @inlinable @inline(__always)
  public final func attributeValue(at slot: Int) -> AttributeValue? {
    if isFaultStorage { fulfillFault() }
    // Read in place: `attributeValues[slot]` copies the values out of the object first (a
    // retain and a release of their storage), on every read of every generated property.
    return withUnsafeMutablePointer(to: &attributeValues) { AttributeValues.withValue(at: slot, of: $0) { $0 } }
  }

  /// Loads the object's values from the store (it is a fault): the out-of-line part of the
  /// generated properties' reads.
  @usableFromInline
  final func fulfillFault() {
    context?.fulfillFault(self)
  }

  /// Sets the value in an attribute slot.
  public final func setAttributeValue(_ value: AttributeValue?, at slot: Int) {
    if isFaultStorage { fulfillFault() }
    let holdsValue = withUnsafeMutablePointer(to: &attributeValues) { AttributeValues.holds(value, at: slot, of: $0) }
    guard !holdsValue else { return }
    replaceAttributeValue(at: slot, with: value)
    context?.objectDidChange(self)
  }

  // MARK: - Relationships

  /// The destination of a to-one relationship.
  public final func object(forKey key: String) throws(ObjectAccessError) -> ManagedObject? {
    let slot = try relationshipSlot(key, toMany: false)
    return context?.toOneDestination(of: self, slot: slot)
  }

  /// Sets the destination of a to-one relationship, keeping the inverse in step.
  public final func setObject(_ object: ManagedObject?, forKey key: String) throws(ObjectAccessError) {
    let slot = try relationshipSlot(key, toMany: false)
    try checkDestination(object, slot: slot)
    context?.setToOne(of: self, slot: slot, to: object)
  }

  /// The objects of a to-many relationship, in order for ordered relationships and in a stable
  /// order (insertion, then primary key) otherwise.
  public final func objects(forKey key: String) throws(ObjectAccessError) -> [ManagedObject] {
    let slot = try relationshipSlot(key, toMany: true)
    return context?.toManyDestinations(of: self, slot: slot) ?? []
  }

  /// Replaces the objects of a to-many relationship, keeping inverses in step.
  public final func setObjects(_ objects: [ManagedObject], forKey key: String) throws(ObjectAccessError) {
    let slot = try relationshipSlot(key, toMany: true)
    for object in objects { try checkDestination(object, slot: slot) }
    context?.setToMany(of: self, slot: slot, to: objects)
  }

  /// Adds an object to a to-many relationship (at the end, or at `index` for ordered ones).
  public final func addObject(_ object: ManagedObject, forKey key: String, at index: Int? = nil)
    throws(ObjectAccessError)
  {
    let slot = try relationshipSlot(key, toMany: true)
    try checkDestination(object, slot: slot)
    context?.addToMany(of: self, slot: slot, object: object, at: index)
  }

  /// Removes an object from a to-many relationship.
  public final func removeObject(_ object: ManagedObject, forKey key: String) throws(ObjectAccessError) {
    let slot = try relationshipSlot(key, toMany: true)
    context?.removeFromToMany(of: self, slot: slot, object: object)
  }

  func relationshipSlot(_ key: String, toMany: Bool) throws(ObjectAccessError) -> Int {
    guard let slot = layout.relationshipSlots[key] else {
      throw ObjectAccessError.unknownRelationship(key, entity: layout.name)
    }
    guard layout.relationships[slot].relationship.isToMany == toMany else {
      throw ObjectAccessError.wrongCardinality(key, entity: layout.name, isToMany: !toMany)
    }
    return slot
  }

  func checkDestination(_ object: ManagedObject?, slot: Int) throws(ObjectAccessError) {
    guard let object else { return }
    let relationship = layout.relationships[slot]
    guard let model = context?.model, model.entity(object.layout.entity, isKindOf: relationship.destination) else {
      throw ObjectAccessError.wrongDestination(
        relationship.relationship.name, entity: layout.name, expected: relationship.relationship.destinationEntityName,
        actual: object.layout.name)
    }
    guard object.context === context else {
      throw ObjectAccessError.differentContext(relationship.relationship.name, entity: layout.name)
    }
  }
}

/// What the context passes to a new object; opaque to subclasses.
///
/// The context makes one for each object and the object's initializer reads it at once, while
/// the context (which holds the layout) is in the call that makes the object: holding the two
/// without retaining them saves a retain and a release of each for every object a fetch makes.
/// Nothing outside this module can read them.
public struct ObjectConstruction {
  let objectID: ObjectID
  unowned(unsafe) let layout: ObjectLayout
  unowned(unsafe) let context: ObjectContext
  let isInserted: Bool
  let isFault: Bool
  /// The stored row the object is made from, when it is fetched. The object's initializer
  /// moves the row out (the pointer's memory is left uninitialized): passing the row itself
  /// copied it into the construction, retaining each of its values once more, and released
  /// the copy after, for every object a fetch makes.
  var row: UnsafeMutablePointer<StoredRow>? = nil
}

/// The objects of a loaded to-many relationship: in order, with a set for membership.
struct ToManyValue: Equatable {
  var ids: [ObjectID]
  var members: Set<ObjectID>

  init(_ ids: [ObjectID] = []) {
    self.ids = ids
    self.members = Set(ids)
  }

  static func == (lhs: ToManyValue, rhs: ToManyValue) -> Bool { lhs.ids == rhs.ids }

  /// Equal as sets (for unordered relationships).
  func sameMembers(as other: ToManyValue) -> Bool { members == other.members }

  mutating func append(_ id: ObjectID, at index: Int? = nil) {
    guard members.insert(id).inserted else { return }
    if let index, index >= 0, index <= ids.count { ids.insert(id, at: index) } else { ids.append(id) }
  }

  mutating func remove(_ id: ObjectID) {
    guard members.remove(id) != nil else { return }
    ids.removeAll { $0 == id }
  }
}

/// A misuse of the dynamic accessors: an unknown key, a value of the wrong type, an object of
/// the wrong entity.
public enum ObjectAccessError: Error, Sendable, Hashable, CustomStringConvertible {
  case unknownAttribute(String, entity: String)
  case unknownRelationship(String, entity: String)
  case wrongCardinality(String, entity: String, isToMany: Bool)
  case typeMismatch(attribute: String, entity: String, expected: AttributeType, value: AttributeValue)
  case wrongDestination(String, entity: String, expected: String, actual: String)
  case differentContext(String, entity: String)

  public var description: String {
    switch self {
    case .unknownAttribute(let key, let entity):
      "entity '\(entity)' has no attribute '\(key)'"
    case .unknownRelationship(let key, let entity):
      "entity '\(entity)' has no relationship '\(key)'"
    case .wrongCardinality(let key, let entity, let isToMany):
      "relationship '\(key)' of entity '\(entity)' is \(isToMany ? "to-many" : "to-one")"
    case .typeMismatch(let attribute, let entity, let expected, let value):
      "attribute '\(attribute)' of entity '\(entity)' is \(expected.rawValue); \(value) is not"
    case .wrongDestination(let key, let entity, let expected, let actual):
      "relationship '\(key)' of entity '\(entity)' holds \(expected) objects, not \(actual)"
    case .differentContext(let key, let entity):
      "relationship '\(key)' of entity '\(entity)': the object belongs to another context"
    }
  }
}

/// Whether a value may be stored in an attribute of a type.
enum AttributeValueTypeCheck {
  static func matches(_ value: AttributeValue, _ type: AttributeType) -> Bool {
    switch (value, type) {
    case (.integer(let integer), _) where type.isInteger: type.integerRange?.contains(integer) ?? false
    case (.decimal, .decimal), (.double, .double), (.float, .float), (.string, .string), (.boolean, .boolean),
      (.date, .date), (.binary, .binary), (.binary, .transformable), (.uuid, .uuid), (.uri, .uri):
      true
    case (_, .undefined), (_, .objectID), (.binary, .composite): true
    default: false
    }
  }
}
