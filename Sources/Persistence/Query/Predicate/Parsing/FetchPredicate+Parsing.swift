extension FetchPredicate {
  /// Parses a predicate written in NSPredicate's format syntax, substituting the arguments for
  /// its `%@`, `%K`, `%d` and `%f` specifiers in order.
  ///
  /// ```swift
  /// let predicate = try FetchPredicate(format: "title CONTAINS[cd] %@", text)
  /// let byKey = try FetchPredicate(format: "%K == %@", "project.name", "Inbox")
  /// let none = try FetchPredicate(format: "dueDate == %@", nil)
  /// ```
  ///
  /// `%@` substitutes any value as a constant (an array or set becomes a collection for `IN`);
  /// `%K` substitutes a key path (its argument is a dotted string and is never a value);
  /// `%d`, `%i`, `%ld`, `%lld`, `%u` take integers (or booleans); `%f`, `%lf` take numbers.
  /// Inside a quoted string every character is literal, except that `%%` is a single `%`.
  ///
  /// - Throws: ``PredicateSyntaxError`` with the column of the problem for a malformed format,
  ///   too few or too many arguments, an argument of the wrong type or an unknown specifier.
  public init(format: String, _ arguments: (any PredicateArgumentConvertible)?...) throws(PredicateSyntaxError) {
    try self.init(format: format, argumentArray: arguments)
  }

  /// Parses a predicate in NSPredicate's format syntax with its arguments passed as an array,
  /// like `NSPredicate(format:argumentArray:)`.
  ///
  /// - Throws: ``PredicateSyntaxError``, as ``init(format:_:)`` does.
  public init(format: String, argumentArray: [(any PredicateArgumentConvertible)?]) throws(PredicateSyntaxError) {
    self = try PredicateParser.parse(format, arguments: argumentArray.map { $0?.predicateValue ?? .null })
  }
}
