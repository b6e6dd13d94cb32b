/// Names generated code cannot give to the classes and properties it declares as they are, or
/// that it gives them with a warning.
enum ReservedNames {
  /// The modules generated code refers to by name (`Swift.String`, `Persistence.EntityAccess`).
  /// A class or property with one of these names would hide the module from generated code.
  static let modules: Set<String> = ["Swift", "Foundation", "Persistence", "DataModel", "_Concurrency"]

  /// Members every generated class has: ``ManagedObject``'s properties (an entity's property of
  /// the same name could not override them), the nested `Keys` type of generated code, and
  /// names Core Data reserves for `NSObject` (`hash`, `description`…).
  static let members: [String: String] = [
    "id": "the object's identity (ManagedObject.id, its ObjectID, which makes generated classes Identifiable)",
    "objectID": "the object's ObjectID (ManagedObject.objectID)",
    "layout": "the entity's slot layout (ManagedObject.layout)",
    "context": "the object's context (ManagedObject.context)",
    "entityName": "the entity's name (ManagedObject.entityName and GeneratedEntity.entityName)",
    "isInserted": "a ManagedObject property",
    "isDeleted": "a ManagedObject property",
    "isFault": "a ManagedObject property",
    "hasChanges": "a ManagedObject property",
    "isUpdated": "a ManagedObject property",
    "changedValues": "a ManagedObject property",
    "description": "the object's description (CustomStringConvertible, as NSObject's in Core Data)",
    "debugDescription": "a description member of NSObject and CustomDebugStringConvertible",
    "hash": "NSObject's hash, which Core Data reserves (and Hashable's hash(into:))",
    "hashValue": "Hashable's hashValue",
    "predicateIdentity": "a member of ManagedObject's predicate support (PredicateEvaluable)",
    "Keys": "the nested type of typed keys every generated class declares",
  ]

  /// Types whose name a generated class takes from the rest of its module, with the module that
  /// declares them; generated code still compiles (it qualifies every type it uses).
  static let commonTypes: [String: String] = {
    var result: [String: String] = [:]
    for name in [
      "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Collection", "Comparable", "Decodable",
      "Dictionary", "Double", "Duration", "Encodable", "Equatable", "Error", "Float", "Hashable", "Hasher",
      "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "KeyPath", "Mirror", "Never", "ObjectIdentifier",
      "Optional", "Range", "Result", "Sendable", "Sequence", "Set", "String", "Substring", "UInt", "UInt8", "UInt16",
      "UInt32", "UInt64", "Unicode", "Void",
    ] {
      result[name] = "Swift"
    }
    for name in ["Task", "Actor", "MainActor", "AsyncStream", "TaskGroup", "Clock", "ContinuousClock"] {
      result[name] = "_Concurrency"
    }
    for name in [
      "AttributedString", "Bundle", "Calendar", "CharacterSet", "Data", "Date", "DateComponents", "DateFormatter",
      "DateInterval", "Decimal", "Expression", "FileManager", "Formatter", "Host", "IndexPath", "IndexSet",
      "JSONDecoder", "JSONEncoder", "Locale", "Measurement", "NSError", "NSObject", "Notification",
      "NotificationCenter", "Operation", "OperationQueue", "PersonNameComponents", "Port", "Predicate", "Process",
      "Progress", "Scanner", "SortDescriptor", "Stream", "Thread", "TimeZone", "Timer", "Unit", "URL", "URLRequest",
      "URLSession", "UUID",
    ] {
      result[name] = "Foundation"
    }
    for name in [
      "AttributeTransformer", "AttributeValueRepresentable", "EntityAccess", "FetchPredicate", "FetchRequest",
      "FetchSortDescriptor", "GeneratedEntity", "ManagedObject", "MergePolicy", "ObjectContext", "ObjectID",
      "PersistentContainer", "PropertyKey", "SaveNotification", "StoreOptions",
    ] {
      result[name] = "Persistence"
    }
    for name in [
      "AttributeDescription", "AttributeType", "AttributeValue", "Diagnostic", "EntityDescription", "ModelBundle",
      "ModelError", "ModelVersion", "RelationshipDescription",
    ] {
      result[name] = "DataModel"
    }
    return result
  }()
}
