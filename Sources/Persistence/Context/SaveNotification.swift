/// What one save changed: the IDs (permanent) of the objects inserted, updated and deleted.
///
/// Every successful save of a context of a container produces one; another context merges it
/// with ``ObjectContext/mergeChanges(from:)``, and observable view models refresh on it.
public struct SaveNotification: Sendable, Hashable {
  /// Objects inserted by the save.
  public var insertedObjects: Set<ObjectID>
  /// Objects updated by the save.
  public var updatedObjects: Set<ObjectID>
  /// Objects deleted by the save.
  public var deletedObjects: Set<ObjectID>
  /// An identifier of the context that saved, to let it ignore its own notifications.
  public var sourceContext: ObjectIdentifier?

  public init(
    insertedObjects: Set<ObjectID> = [], updatedObjects: Set<ObjectID> = [], deletedObjects: Set<ObjectID> = [],
    sourceContext: ObjectIdentifier? = nil
  ) {
    self.insertedObjects = insertedObjects
    self.updatedObjects = updatedObjects
    self.deletedObjects = deletedObjects
    self.sourceContext = sourceContext
  }

  /// Whether nothing changed.
  public var isEmpty: Bool { insertedObjects.isEmpty && updatedObjects.isEmpty && deletedObjects.isEmpty }
}
