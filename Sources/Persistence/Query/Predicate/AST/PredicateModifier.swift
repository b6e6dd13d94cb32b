/// How a comparison quantifies a to-many left-hand side: the `ANY`, `ALL` and `NONE` keywords.
public enum PredicateModifier: String, Sendable, Hashable, Codable, CaseIterable {
  /// No keyword. A left key path that crosses a to-many relationship still means `ANY`, as in
  /// Core Data's SQL store.
  case direct = ""
  /// `ANY` or `SOME`: at least one element satisfies the comparison (false for an empty collection).
  case any = "ANY"
  /// `ALL`: every element satisfies the comparison (true for an empty collection).
  case all = "ALL"
  /// `NONE`: no element satisfies the comparison; the same as `NOT ANY` (true for an empty collection).
  case none = "NONE"
}
