import Foundation

/// A model and the store that holds its objects, with the contexts that work on them: what
/// Core Data's `NSPersistentContainer` is.
///
/// Opening a file store creates it when absent (laid out as Core Data lays out its stores),
/// checks that its version hashes match the model version, and hands it to the store migrator
/// when they match an older version of the bundle. The store runs in WAL mode with a busy
/// timeout, so several processes can use it.
public final class PersistentContainer: Sendable {
  /// The bundle the model comes from, when the container was opened with one.
  public let bundle: ModelBundle?
  /// The model version of the store.
  public let model: ModelVersion
  /// The options the store was opened with.
  public let options: StoreOptions
  /// The store's UUID (`Z_METADATA.Z_UUID`), the authority part of its objects' URIs
  /// (`x-coredata://<UUID>/<Entity>/p<Z_PK>`).
  public let storeUUID: String
  /// Where the store's tables and columns differ from the layout derived from the model (empty
  /// for a store created here, and for in-memory stores). Join tables and columns the store
  /// names otherwise, unambiguously, are read and written under the store's names.
  public let layoutDifferences: [StoreLayoutDifference]

  let storeDescription: StoreDescription
  /// Connections no context is using, starting with the one that prepared the store; one is
  /// open while the container lives (see `StoreConnection.prepareStore`).
  let idleConnections: IdleConnections
  /// The classes of the entities' objects; every context holds them too.
  let entityClasses: EntityClasses
  /// Save observers; every context holds them too, to post its saves.
  let observers = ObserverList()
  /// The view context. The container owns it and it does not own the container back: with a
  /// reference each way, neither would ever be freed, and the store's connections would stay
  /// open until the process ended (SQLite then never checkpoints and removes the write-ahead
  /// log at close, and the next process to open the store reads the whole log again).
  private let mainContextStorage = MainContextStorage()

  /// Opens (or creates) the store for the bundle's current version, or for `versionName`.
  ///
  /// `classes` are the generated entity classes to instantiate for their entities (by class
  /// name, `representedClassName`); other entities use ``ManagedObject``. A store an older
  /// version of the bundle wrote is migrated on open when `options` has a ``StoreOptions/migrator``,
  /// and refused otherwise.
  ///
  /// ```swift
  /// let bundle = try ModelBundle(contentsOf: "Models/Tasks.xcdatamodeld")
  /// let container = try PersistentContainer(
  ///   bundle: bundle, options: .file(URL(fileURLWithPath: "Tasks.sqlite")), classes: [Task.self])
  /// let context = container.newContext()
  /// ```
  ///
  /// - Throws: ``PersistenceError``: ``PersistenceError/storeFailure(_:)`` when the bundle has
  ///   no version `versionName`; ``PersistenceError/storeNotFound(_:)`` when the file is absent
  ///   and the options are read-only or do not create it; ``PersistenceError/notAStore(path:reason:)``
  ///   for a directory, an empty, truncated, damaged or non-SQLite file, or a SQLite database
  ///   without Core Data's tables; ``PersistenceError/storeInaccessible(path:reason:)`` when
  ///   permissions, a read-only folder, a full disk or another process's lock stop it;
  ///   ``PersistenceError/incompatibleStore(path:detail:)`` when the store's version hashes
  ///   match no version of the bundle, or an older one and there is no migrator (the detail says
  ///   how to migrate it). A migrator's own error (for the Migration module's,
  ///   `StoreMigrationError` or `HeavyweightMigrationError`) comes through unchanged, with the
  ///   store left as it was.
  public convenience init(
    bundle: ModelBundle, versionName: String? = nil, options: StoreOptions, classes: [ManagedObject.Type] = []
  ) throws {
    guard let version = versionName.map({ bundle.version(named: $0) }) ?? bundle.currentVersion else {
      throw PersistenceError.storeFailure("the model has no version '\(versionName ?? "")'")
    }
    try self.init(bundle: bundle, model: version, options: options, classes: classes)
  }

  /// Opens (or creates) a store for one model version, outside any bundle. Without a bundle
  /// there is no older version to migrate from: a store written for another version is refused.
  ///
  /// ```swift
  /// let model = try ModelBundle(contentsOf: "Models/Tasks.xcdatamodeld").currentVersion
  /// let container = try PersistentContainer(model: model, options: .inMemory)
  /// ```
  ///
  /// - Throws: ``PersistenceError``, as ``init(bundle:versionName:options:classes:)`` does, with
  ///   ``PersistenceError/incompatibleStore(path:detail:)`` for any store at another version.
  public convenience init(model: ModelVersion, options: StoreOptions, classes: [ManagedObject.Type] = []) throws {
    try self.init(bundle: nil, model: model, options: options, classes: classes)
  }

  private init(bundle: ModelBundle?, model: ModelVersion, options: StoreOptions, classes: [ManagedObject.Type]) throws {
    self.bundle = bundle
    self.model = model
    self.options = options
    var description = try StoreDescription(model: model, options: options)
    var prepared = try StoreConnection.prepareStore(description)
    if case .otherVersion = prepared, let url = description.fileURL {
      // One process migrates; the others wait, then find the store migrated.
      prepared = try StoreMigrationLock.withLock(forStoreAt: url) {
        let current = try StoreConnection.prepareStore(description)
        guard case .otherVersion(let metadata) = current else { return current }
        try Self.migrate(metadata, bundle: bundle, description: description)
        return try StoreConnection.prepareStore(description)
      }
    } else if case .otherVersion(let metadata) = prepared {
      try Self.migrate(metadata, bundle: bundle, description: description)
      prepared = try StoreConnection.prepareStore(description)
    }
    guard case .ready(var metadata, var connection) = prepared else {
      throw PersistenceError.incompatibleStore(
        path: description.fileURL?.path ?? ":memory:",
        detail: "its version hashes are still not those of model version '\(model.name)' after migrating it")
    }
    // A store read with the names it has: where its join tables are named otherwise than
    // derived, and unambiguously, the store's names are used; every difference is kept for
    // `store info`.
    var differences: [StoreLayoutDifference] = []
    if description.fileURL != nil {
      // The tables' text first: a store laid out as derived (every store made here or by Core
      // Data for this version) is known to have the layout's columns without asking SQLite for
      // each table's (about a third of an open's instructions).
      let schema = description.schema
      let adoption =
        schema.isLaidOutAsDerived(tableStatements: try connection.tableStatements())
        ? schema.derivedAdoption : schema.adopting(existingTables: try connection.columnNamesByTable())
      differences = adoption.differences
      if adoption.adoptsStoreNames {
        description = try StoreDescription(model: model, options: options, schema: adoption.schema)
        guard case .ready(let reopenedMetadata, let reopened) = try StoreConnection.prepareStore(description) else {
          throw PersistenceError.incompatibleStore(
            path: description.fileURL?.path ?? ":memory:", detail: "it changed while it was being opened")
        }
        (metadata, connection) = (reopenedMetadata, reopened)
      }
    }
    self.layoutDifferences = differences
    self.storeDescription = description
    self.storeUUID = metadata.storeUUID
    self.idleConnections = IdleConnections(connection)
    var byClass: [ObjectIdentifier: Int] = [:]
    var byEntity: [Int: ManagedObject.Type] = [:]
    for type in classes {
      // A generated class names its entity; any class also stands for the entities whose
      // class name is its name.
      // `_typeName` is what `String(describing:)` gives a class, without the conformance
      // lookups and the reflection it goes through first (a twentieth of `task list`'s start).
      let className = _typeName(type, qualified: false)
      let generatedName = (type as? any GeneratedEntity.Type)?.entityName
      for entity in model.entities where entity.name == generatedName || entity.className == className {
        if entity.name == generatedName || byClass[ObjectIdentifier(type)] == nil {
          byClass[ObjectIdentifier(type)] = entity.id.index
        }
        if byEntity[entity.id.index] == nil || entity.name == generatedName { byEntity[entity.id.index] = type }
      }
    }
    // A sub-entity without a class of its own is made as its nearest ancestor's class, so that
    // its objects are what the ancestor's typed relationships expect.
    for entity in model.entities where byEntity[entity.id.index] == nil {
      if let ancestor = model.ancestors(of: entity.id).first(where: { byEntity[$0.index] != nil }) {
        byEntity[entity.id.index] = byEntity[ancestor.index]
      }
    }
    self.entityClasses = EntityClasses(
      entities: byClass, classes: model.entities.indices.map { byEntity[$0] ?? ManagedObject.self })
  }

  /// Migrates a store written for another version of the bundle to the description's version,
  /// or refuses it with the reason.
  private static func migrate(_ metadata: StoreMetadata, bundle: ModelBundle?, description: StoreDescription) throws {
    let model = description.model
    let options = description.options
    let url = description.fileURL ?? URL(fileURLWithPath: ":memory:")
    guard let bundle, let source = metadata.matchingVersion(in: bundle) else {
      let closest = bundle.flatMap { metadata.closestVersion(in: $0) } ?? metadata.distance(to: model)
      throw PersistenceError.incompatibleStore(
        path: url.path,
        detail:
          "its version hashes match no version of the model; it was written for another model, or for a version that is no longer in the bundle; the closest version is '\(closest.versionName)' (\(([closest.summary.joined(separator: "; ")]).joined()))"
      )
    }
    guard let migrator = options.migrator, !options.isReadOnly else {
      throw PersistenceError.incompatibleStore(
        path: url.path,
        detail:
          "it is at version '\(source.name)', the model is at '\(model.name)'; migrate it with `modelc migrate` or open it with a store migrator (`StoreOptions.migratingFile(_:)` from the Migration module)"
      )
    }
    try migrator.migrateStore(at: url, from: source, to: model, in: bundle)
  }

  // MARK: - Contexts

  /// A new context on the store, for the caller's own isolation domain.
  public func newContext() -> ObjectContext {
    ObjectContext(container: self, ownsContainer: true)
  }

  /// The context for the main actor (user interfaces and view models).
  @MainActor
  public var viewContext: ObjectContext {
    if let context = mainContextStorage.context { return context }
    let context = ObjectContext(container: self, ownsContainer: false)
    mainContextStorage.context = context
    return context
  }

  /// Runs work on a new context off the caller's actor and returns its result.
  ///
  /// ```swift
  /// let count = try await container.performBackgroundTask { context in
  ///   try context.count(for: FetchRequest<ManagedObject>(entityName: "Task"))
  /// }
  /// ```
  ///
  /// - Throws: Whatever `body` throws, unchanged.
  public func performBackgroundTask<Result: Sendable>(
    _ body: @escaping @Sendable (ObjectContext) throws -> Result
  ) async throws -> Result {
    try await Task.detached { [self] in
      let context = self.newContext()
      return try body(context)
    }.value
  }

  // MARK: - Entity classes

  /// The entity a generated class stands for.
  public func entity(for type: ManagedObject.Type) -> EntityID? {
    entityClasses.entity(for: type)
  }

  // MARK: - Save notifications

  /// Calls `observer` after every successful save of any context of this container, on the
  /// saving context's thread.
  @discardableResult
  public func addSaveObserver(_ observer: @escaping @Sendable (SaveNotification) -> Void) -> SaveObservation {
    observers.add(observer)
  }

  /// Every save notification from now on, as an asynchronous sequence.
  public func saveNotifications() -> AsyncStream<SaveNotification> {
    AsyncStream { continuation in
      let observation = observers.add { continuation.yield($0) }
      continuation.onTermination = { _ in observation.cancel() }
    }
  }

}

/// Which class makes each entity's objects, and which entity each registered class stands for.
struct EntityClasses: Sendable {
  /// The entity index of each registered class.
  let entities: [ObjectIdentifier: Int]
  /// The class of each entity's objects, by entity index: read for every object a fetch
  /// makes, so an array rather than a dictionary (a hash of the index per row).
  let classes: [ManagedObject.Type]

  func entity(for type: ManagedObject.Type) -> EntityID? {
    entities[ObjectIdentifier(type)].map(EntityID.init)
  }

  func objectClass(for entity: EntityID) -> ManagedObject.Type {
    classes[entity.index]
  }
}

/// A registration of a save observer; cancel it (or drop it) to stop observing.
public final class SaveObservation: Sendable {
  private let cancellation: @Sendable () -> Void

  init(_ cancellation: @escaping @Sendable () -> Void) {
    self.cancellation = cancellation
  }

  /// Stops the observation.
  public func cancel() { cancellation() }
}

/// Save observers, guarded by a lock.
final class ObserverList: @unchecked Sendable {
  private let lock = NSLock()
  private var observers: [Int: @Sendable (SaveNotification) -> Void] = [:]
  private var nextToken = 0

  func add(_ observer: @escaping @Sendable (SaveNotification) -> Void) -> SaveObservation {
    lock.lock()
    defer { lock.unlock() }
    let token = nextToken
    nextToken += 1
    observers[token] = observer
    return SaveObservation { [weak self] in self?.remove(token) }
  }

  private func remove(_ token: Int) {
    lock.lock()
    defer { lock.unlock() }
    observers[token] = nil
  }

  /// Whether anyone observes saves (a save skips building its notification otherwise).
  var isObserved: Bool {
    lock.lock()
    defer { lock.unlock() }
    return !observers.isEmpty
  }

  func post(_ notification: SaveNotification) {
    lock.lock()
    let current = Array(observers.values)
    lock.unlock()
    for observer in current { observer(notification) }
  }
}

/// Holds the main-actor context; touched only from the main actor.
final class MainContextStorage: @unchecked Sendable {
  @MainActor var context: ObjectContext?

  nonisolated init() {}
}
