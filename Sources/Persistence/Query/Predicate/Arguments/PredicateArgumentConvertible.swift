/// A Swift value that can be passed as a format argument (`%@`, `%d`, `%f`, `%K`) or bound to a
/// `$VARIABLE`, so that predicates are written as with NSPredicate:
///
/// ```swift
/// try FetchPredicate(format: "title CONTAINS[cd] %@ AND dueDate < %@", text, Date())
/// try FetchPredicate(format: "status IN %@", ["open", "blocked"])
/// try FetchPredicate(format: "project == %@", nil)
/// ```
///
/// The standard library's strings, integers, floating-point numbers and booleans conform, as do
/// Foundation's `Date`, `UUID`, `URL`, `Data` and `Decimal`, optionals (`nil` becomes `nil` in
/// the predicate), and arrays and sets of conforming elements (for `IN` and `BETWEEN`).
/// ``PredicateValue`` conforms too, for values built by hand.
public protocol PredicateArgumentConvertible {
  /// The constant this value stands for in a predicate.
  var predicateValue: PredicateValue { get }
}
