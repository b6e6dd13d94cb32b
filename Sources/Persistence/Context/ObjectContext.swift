import Foundation

/// A scratch pad of objects over a store: what Core Data's `NSManagedObjectContext` is.
///
/// Objects are inserted, fetched, changed and deleted here; nothing reaches the store until
/// ``save()``, which validates every change and writes all of them in one transaction, or
/// nothing. The context tracks what changed (``insertedObjects``, ``updatedObjects``,
/// ``deletedObjects``), keeps each row as one object, loads relationships lazily, keeps both
/// sides of every relationship in step and applies deletion rules.
///
/// A context is not `Sendable`: it and its objects stay in the isolation domain that created
/// them (the main actor for ``PersistentContainer/viewContext``, a background task for
/// ``PersistentContainer/performBackgroundTask(_:)``), which Swift 6 checks at compile time. Pass
/// ``ObjectID``s between contexts, and merge another context's saves with
/// ``mergeChanges(from:)``.
public final class ObjectContext {
  /// The container the context belongs to.
  ///
  /// A context from ``PersistentContainer/newContext()`` keeps its container alive. The
  /// ``PersistentContainer/viewContext`` does not (its container owns it): keep a reference to
  /// the container for as long as this property of its view context is read. The context itself
  /// goes on working without it.
  public var container: PersistentContainer {
    if let ownedContainer { return ownedContainer }
    guard let mainContainer else {
      preconditionFailure(
        "the container of this view context was freed: keep a reference to the PersistentContainer while you use its viewContext's container"
      )
    }
    return mainContainer
  }
  private let ownedContainer: PersistentContainer?
  private weak var mainContainer: PersistentContainer?
  /// The container's classes and save observers, which the context uses without its container.
  let entityClasses: EntityClasses
  let observers: ObserverList
  /// The store's UUID, which objects' URIs are made from (kept here for the same reason).
  let storeUUID: String
  /// What the context does when a save meets rows changed by someone else.
  public var mergePolicy: MergePolicy = .error
  /// The last error met while loading a fault or a relationship lazily (accessors do not
  /// throw; fetches and saves do).
  public internal(set) var lastAccessError: (any Error)?

  let store: StoreConnection
  /// The layouts of the model's entities, held by the link that every object holds.
  var layouts: ObjectLayouts { link.layouts }
  /// Every object of the context by ID. Unchanged objects that nothing else references any
  /// more are dropped from time to time (``pruneRegistry()``), so that iterating a large result
  /// does not keep it all in memory. (Weak references would do the same, but they make every
  /// retain and release of an object take a slow path.)
  ///
  /// Read and written once per fetched row, and only by the context's own code, which never
  /// holds an access open across a call that could reach it again: the run-time exclusivity
  /// checks are left out, as they are for the objects' values.
  @exclusivity(unchecked) var registry = ObjectRegistry()
  /// The registry size at which the next prune runs.
  var pruneThreshold = 20_000
  /// Objects with pending changes, held strongly until saved or rolled back.
  ///
  /// Written on the first change of every object, by the context's own code alone, which never
  /// holds an access open across a call that could reach it again: the run-time exclusivity
  /// checks (about 80 instructions an object in an edit of many) are left out, as for the
  /// registry.
  @exclusivity(unchecked) var changedObjects = ChangedObjects()
  var nextTemporaryNumber: Int64 = 1

  /// The link every object of the context holds to reach it.
  let link: ContextLink

  /// A context of `container`, which it keeps alive when `ownsContainer` (every context but the
  /// view context, which its container keeps).
  init(container: PersistentContainer, ownsContainer: Bool) {
    self.ownedContainer = ownsContainer ? container : nil
    // A weak reference only where it is needed: forming one gives the container a side table,
    // which LeakSanitizer reports as leaked while the container lives (its pointer is hidden in
    // the reference counts).
    if !ownsContainer { self.mainContainer = container }
    self.entityClasses = container.entityClasses
    self.observers = container.observers
    self.storeUUID = container.storeUUID
    self.store = StoreConnection(description: container.storeDescription, idleConnections: container.idleConnections)
    self.link = ContextLink(layouts: container.storeDescription.layouts)
    link.context = self
  }

  deinit {
    link.context = nil
  }

  /// The model version of the store.
  public var model: ModelVersion { layouts.model }

  // MARK: - Change tracking

  /// Whether a save would write anything.
  public var hasChanges: Bool {
    changedObjects.values.contains { $0.hasChanges }
  }

  /// Objects inserted since the last save.
  public var insertedObjects: Set<ManagedObject> {
    Set(changedObjects.values.filter { $0.lifecycle == .inserted })
  }

  /// Persisted objects changed since the last save.
  public var updatedObjects: Set<ManagedObject> {
    Set(changedObjects.values.filter { $0.isUpdated })
  }

  /// Objects deleted since the last save.
  public var deletedObjects: Set<ManagedObject> {
    Set(changedObjects.values.filter { $0.lifecycle == .deleted })
  }

  /// Every object the context holds right now.
  public var registeredObjects: [ManagedObject] {
    registry.values
  }

  func objectDidChange(_ object: ManagedObject) {
    // An object stays in `changedObjects` from its first change (or its insertion) until it is
    // saved, rolled back or forgotten.
    guard object.changeSlot < 0 else { return }
    track(object)
  }

  /// Adds an object to the set of objects with pending changes.
  func track(_ object: ManagedObject) {
    changedObjects.insert(object)
  }

  /// Removes an object from the set of objects with pending changes.
  func untrack(_ object: ManagedObject) {
    changedObjects.remove(object)
  }

  /// Empties the set of objects with pending changes.
  func untrackAll() {
    changedObjects.removeAll()
  }

  // MARK: - Creating and finding objects

  /// Inserts a new object of an entity, with the model's default values.
  public func insert(entityNamed name: String) throws(PersistenceError) -> ManagedObject {
    guard let layout = layouts.layout(named: name) else {
      throw PersistenceError.unknownEntity(
        name, suggestion: EditDistance.suggestion(for: name, among: model.entities.map(\.name)))
    }
    guard !layout.description.isAbstract else { throw PersistenceError.abstractEntity(name) }
    return insert(entity: layout.entity)
  }

  /// Inserts a new object of a generated class's entity.
  public func insert<Object: ManagedObject>(_ type: Object.Type) -> Object {
    guard let entity = entityClasses.entity(for: type) else {
      preconditionFailure("\(type) is not registered with the container; generated classes register themselves")
    }
    guard let object = insert(entity: entity) as? Object else {
      preconditionFailure("the container made another class than \(type) for entity '\(model[entity].name)'")
    }
    return object
  }

  func insert(entity: EntityID) -> ManagedObject {
    let construction = insertionConstruction(for: entity)
    let object = entityClasses.objectClass(for: entity).init(construction)
    didInsert(object)
    return object
  }

  /// What a new object of an entity is made from (a fresh temporary ID).
  func insertionConstruction(for entity: EntityID) -> ObjectConstruction {
    let id = ObjectID(entity: entity, temporary: nextTemporaryNumber)
    nextTemporaryNumber += 1
    return ObjectConstruction(objectID: id, layout: layouts[entity], context: self, isInserted: true, isFault: false)
  }

  /// Registers a newly made object as inserted. It already has the model's default values and
  /// empty to-many relationships: `ManagedObject.init` takes them from its layout for an
  /// inserted construction.
  func didInsert(_ object: ManagedObject) {
    register(object)
    track(object)
  }

  func makeObject(id: ObjectID, layout: ObjectLayout, isInserted: Bool, isFault: Bool) -> ManagedObject {
    let type = entityClasses.objectClass(for: layout.entity)
    return type.init(
      ObjectConstruction(objectID: id, layout: layout, context: self, isInserted: isInserted, isFault: isFault))
  }

  func register(_ object: ManagedObject) {
    registry[object.objectID] = object
    pruneRegistryWhenLarge()
  }

  /// Prunes the registry once it reaches the threshold, then moves the threshold to twice
  /// what is left, so pruning costs a constant amount per registered object. The check is
  /// inlined into every registration (a fetch makes one per row); the pruning is not.
  @inline(__always)
  private func pruneRegistryWhenLarge() {
    guard registry.count >= pruneThreshold else { return }
    pruneRegistryAndMoveThreshold()
  }

  @inline(never)
  private func pruneRegistryAndMoveThreshold() {
    pruneRegistry()
    pruneThreshold = max(20_000, registry.count * 2)
  }

  /// Forgets unchanged objects that only the registry still references: nobody can reach them,
  /// and they would be read again from the store if asked for.
  func pruneRegistry() {
    // Freed here, after the registry's access has ended.
    let forgotten = registry.pruneUnreferenced()
    _ = consume forgotten
  }

  /// The object with this ID, registered or as a fault that loads on first use; nil when the
  /// ID belongs to no object of this context's store (a temporary ID of another context).
  public func object(with id: ObjectID) -> ManagedObject? {
    if let object = registry[id] { return object }
    guard !id.isTemporary, id.entity.index < layouts.layouts.count else { return nil }
    let object = makeObject(id: id, layout: layouts[id.entity], isInserted: false, isFault: true)
    register(object)
    return object
  }

  /// The object with this ID, loaded; throws when it does not exist in the store.
  public func existingObject(with id: ObjectID) throws -> ManagedObject {
    guard let object = object(with: id) else { throw PersistenceError.objectNotFound(id) }
    if object.isFault { try load(object) }
    guard !object.isDeleted || object.lifecycle == .deleted else { throw PersistenceError.objectNotFound(id) }
    return object
  }

  /// Loads a fault's values.
  func load(_ object: ManagedObject) throws {
    guard object.isFaultStorage, let primaryKey = object.objectID.primaryKey else { return }
    guard let row = try store.loadRow(entity: object.objectID.entity, primaryKey: primaryKey) else {
      object.isFaultStorage = false
      object.lifecycle = .gone
      return
    }
    apply(row, to: object)
  }

  func fulfillFault(_ object: ManagedObject) {
    do {
      try load(object)
    } catch {
      lastAccessError = error
      object.isFaultStorage = false
    }
  }

  /// Copies a row read from the store into an object (as its committed state too).
  func apply(_ row: StoredRow, to object: ManagedObject) {
    object.attributeValues = row.attributes
    object.committedAttributes = .unchanged
    object.toOneValues = row.toOne
    object.committedToOneValues = row.toOne
    object.storedVersion = row.version
    object.isFaultStorage = false
  }

  /// The registered object for a row, made or refreshed from the row unless it has pending
  /// changes of its own.
  func object(for row: StoredRow) -> ManagedObject {
    guard let object = registry[row.objectID] else { return makeObject(for: row) }
    if needsRefresh(object, version: row.version) { refresh(object, from: row) }
    return object
  }

  /// The registered object for the row a cursor is on, as ``object(for:)`` gives it; the row's
  /// values are decoded only when the object is new or must be refreshed.
  func object(at cursor: StoredRowCursor) throws -> ManagedObject {
    guard let object = registry[cursor.objectID] else { return try makeObject(at: cursor) }
    if needsRefresh(object, version: cursor.version) { refresh(object, from: try cursor.decode()) }
    return object
  }

  /// A new object for the row a cursor is on, for a caller that knows the context holds none
  /// for it: a fetch into a context that holds no saved object of the fetched entities (one
  /// SELECT returns each row once) skips looking each row up.
  func unregisteredObject(at cursor: StoredRowCursor) throws -> ManagedObject {
    assert(registry[cursor.objectID] == nil, "the context already holds an object for \(cursor.objectID)")
    return try makeObject(at: cursor)
  }

  /// A new object for a row whose ID has none yet, registered.
  private func makeObject(for row: StoredRow) -> ManagedObject {
    withUnsafeTemporaryAllocation(of: StoredRow.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress!
      pointer.initialize(to: row)
      return makeObject(movingFrom: pointer)
    }
  }

  /// A new object for the row a cursor is on, decoded straight into the memory the object's
  /// initializer moves it from (no copy of the row, no retain of its values for one).
  private func makeObject(at cursor: StoredRowCursor) throws -> ManagedObject {
    try withUnsafeTemporaryAllocation(of: StoredRow.self, capacity: 1) { buffer in
      let pointer = buffer.baseAddress!
      pointer.initialize(to: try cursor.decode())
      return makeObject(movingFrom: pointer)
    }
  }

  /// A new object made from the row at `pointer`, which it moves out (leaving the memory
  /// uninitialized), registered.
  private func makeObject(movingFrom pointer: UnsafeMutablePointer<StoredRow>) -> ManagedObject {
    let objectID = pointer.pointee.objectID
    let object = entityClasses.objectClass(for: objectID.entity).init(
      ObjectConstruction(
        objectID: objectID, layout: layouts[objectID.entity], context: self, isInserted: false, isFault: false,
        row: pointer))
    registry.register(object)
    pruneRegistryWhenLarge()
    return object
  }

  /// Whether a registered object takes the values of a row read again: a fault does, and so does
  /// an unchanged object whose row another save changed since.
  private func needsRefresh(_ object: ManagedObject, version: Int64) -> Bool {
    object.isFaultStorage || (object.storedVersion != version && !object.hasChanges)
  }

  private func refresh(_ object: ManagedObject, from row: StoredRow) {
    apply(row, to: object)
    object.forgetToManyValues()
  }

  // MARK: - Undoing

  /// Discards every pending change: inserted objects leave the context, deleted and changed
  /// ones return to their last saved values.
  public func rollback() {
    for object in changedObjects.values {
      switch object.lifecycle {
      case .inserted:
        object.lifecycle = .gone
        registry[object.objectID] = nil
      case .deleted, .persisted:
        object.lifecycle = .persisted
        object.restoreCommittedAttributes()
        object.toOneValues = object.committedToOneValues
        object.restoreCommittedToManyValues()
      case .gone:
        break
      }
    }
    untrackAll()
  }

  /// Reloads an object from the store; with `mergeChanges`, its pending changes are kept on
  /// top of the fresh values, otherwise discarded.
  public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
    guard object.context === self, let primaryKey = object.objectID.primaryKey else { return }
    guard let row = try store.loadRow(entity: object.objectID.entity, primaryKey: primaryKey) else {
      object.lifecycle = .gone
      untrack(object)
      return
    }
    if mergeChanges && object.hasChanges {
      var attributes = row.attributes
      for slot in attributes.indices where object.attributeDiffers(at: slot) {
        attributes[slot] = object.attributeValues[slot]
      }
      var toOne = row.toOne
      for slot in object.layout.relationships.indices
      where object.toOneValues[slot] != object.committedToOneValues[slot] {
        toOne[slot] = object.toOneValues[slot]
      }
      object.committedAttributeValues = row.attributes
      object.committedToOneValues = row.toOne
      object.attributeValues = attributes
      object.toOneValues = toOne
      object.storedVersion = row.version
    } else {
      apply(row, to: object)
      object.forgetToManyValues()
      if object.lifecycle == .deleted { object.lifecycle = .persisted }
      untrack(object)
    }
  }

  /// Turns every unchanged object back into a fault and forgets loaded relationships, so that
  /// the next access reads the store again.
  public func refreshAllObjects() {
    for object in registeredObjects where !object.hasChanges && object.objectID.primaryKey != nil {
      object.isFaultStorage = true
      object.forgetToManyValues()
    }
  }
}
