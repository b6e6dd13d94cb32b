/// A request the runtime cannot carry out.
public enum PersistenceError: Error, Sendable, CustomStringConvertible {
  case unknownEntity(String, suggestion: String?)
  case abstractEntity(String)
  case objectNotFound(ObjectID)
  case unknownProperty(String, entity: String, suggestion: String?)
  case storeNotFound(String)
  case incompatibleStore(path: String, detail: String)
  case storeFailure(String)
  /// The file is not a store at all: a directory, an empty, truncated or damaged file, or not a
  /// SQLite database.
  case notAStore(path: String, reason: String)
  /// The store cannot be read or written: permissions, a read-only folder, a full disk.
  case storeInaccessible(path: String, reason: String)
  /// A save or a batch request inside ``ObjectContext/withReadTransaction(_:)``, which would
  /// have made it part of the reads' transaction (and undone it with them): `operation` is
  /// what was asked.
  case writeInsideReadTransaction(operation: String)

  public var description: String {
    switch self {
    case .unknownEntity(let name, let suggestion):
      return "the model has no entity '\(name)'\(suggestion.map { "; did you mean '\($0)'?" } ?? "")"
    case .abstractEntity(let name):
      return "entity '\(name)' is abstract; insert one of its sub-entities"
    case .objectNotFound(let id):
      return "no object \(id) in the store (it was deleted, or never saved)"
    case .unknownProperty(let name, let entity, let suggestion):
      return "entity '\(entity)' has no property '\(name)'\(suggestion.map { "; did you mean '\($0)'?" } ?? "")"
    case .storeNotFound(let path):
      return "no store at '\(path)'"
    case .incompatibleStore(let path, let detail):
      return "the store at '\(path)' does not match the model: \(detail)"
    case .storeFailure(let message):
      return message
    case .notAStore(let path, let reason):
      return "'\(path)' is not a store: \(reason)"
    case .storeInaccessible(let path, let reason):
      return "cannot use the store '\(path)': \(reason)"
    case .writeInsideReadTransaction(let operation):
      return
        "cannot \(operation) inside the context's read transaction (withReadTransaction); \(operation) after its body returns"
    }
  }
}
