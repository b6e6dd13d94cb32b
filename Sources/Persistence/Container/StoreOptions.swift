import Foundation

/// How a container opens its store.
public struct StoreOptions: Sendable {
  /// Where the store lives.
  public enum Location: Sendable, Hashable {
    /// A SQLite file (with its `-wal` and `-shm` files beside it).
    case file(URL)
    /// A private in-memory store, for tests and previews; gone when the container is.
    case inMemory
  }

  /// Where the store lives.
  public var location: Location
  /// Open without writing; a missing store is an error instead of being created.
  public var isReadOnly: Bool
  /// Create the store when the file does not exist.
  public var createIfMissing: Bool
  /// How long a connection waits for another process's lock before failing, in seconds.
  public var busyTimeout: TimeInterval
  /// What brings an older store to the model's version when it is opened. The Migration module
  /// provides one (`LightweightStoreMigrator`, or `StoreOptions.migratingFile(_:)`); without a
  /// migrator (the default) such a store is refused with an error that says how to migrate it.
  public var migrator: (any StoreMigrator)?

  public init(
    location: Location, isReadOnly: Bool = false, createIfMissing: Bool = true, busyTimeout: TimeInterval = 5,
    migrator: (any StoreMigrator)? = nil
  ) {
    self.location = location
    self.isReadOnly = isReadOnly
    self.createIfMissing = createIfMissing
    self.busyTimeout = busyTimeout
    self.migrator = migrator
  }

  /// A file store; with a migrator, a store an older version of the model wrote is migrated on
  /// open, and without one (the default) it is refused.
  public static func file(_ url: URL, migrator: (any StoreMigrator)? = nil) -> StoreOptions {
    StoreOptions(location: .file(url), migrator: migrator)
  }

  /// An in-memory store.
  public static var inMemory: StoreOptions { StoreOptions(location: .inMemory) }
}

/// Brings a store written for an older version of a model to the version a container opens
/// it with. The Migration module's `LightweightStoreMigrator` is the one modelc provides.
public protocol StoreMigrator: Sendable {
  /// Migrates the store file at `url`, whose metadata matches `source`, to `destination`.
  /// Must leave the store untouched when it throws.
  func migrateStore(at url: URL, from source: ModelVersion, to destination: ModelVersion, in bundle: ModelBundle)
    throws
}
