/// One thing wrong with an import file, placed by entity, object (`_id`) and property.
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
  /// The entity, when the problem is inside one entity's array.
  public var entity: String?
  /// The object's `_id` label (or its index in the array when it has none).
  public var objectID: String?
  /// The attribute, relationship or key.
  public var property: String?
  /// What is wrong.
  public var message: String

  /// A problem at a place of the file.
  public init(entity: String? = nil, objectID: String? = nil, property: String? = nil, message: String) {
    self.entity = entity
    self.objectID = objectID
    self.property = property
    self.message = message
  }

  /// `Task _id "t1", property 'priority': 70000 overflows Integer 16 (-32768…32767)`.
  public var description: String {
    var place: [String] = []
    if let entity { place.append(entity) }
    if let objectID { place.append("_id \"\(objectID)\"") }
    var text = place.joined(separator: " ")
    if let property { text += (text.isEmpty ? "" : ", ") + "property '\(property)'" }
    return text.isEmpty ? message : "\(text): \(message)"
  }
}

/// An import refused as a whole: nothing was written, and every problem found is listed.
public struct StoreImportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Every problem, in file order (validation failures after the file's own problems).
  public var problems: [ImportProblem]

  /// An error listing the problems.
  public init(problems: [ImportProblem]) {
    self.problems = problems
  }

  /// The problems, one per line under a summary.
  public var description: String {
    (["the import was refused (\(problems.count) problem\(problems.count == 1 ? "" : "s")); nothing was written:"]
      + problems.map { "  \($0)" }).joined(separator: "\n")
  }
}
