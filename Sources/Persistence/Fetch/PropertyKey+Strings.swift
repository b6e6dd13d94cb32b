/// A string property's value type, optional or not: what the string operators of
/// ``PropertyKey`` accept (`Task.Keys.title` is a `String`, `Task.Keys.notes` a `String?`).
public protocol PredicateStringProperty {}

extension String: PredicateStringProperty {}

extension Optional: PredicateStringProperty where Wrapped == String {}

extension PropertyKey where Value: PredicateStringProperty {
  /// `key CONTAINS[options] text`.
  public func contains(_ text: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
    compare(.contains, .string(text), options: options)
  }

  /// `key BEGINSWITH[options] text`.
  public func beginsWith(_ text: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
    compare(.beginsWith, .string(text), options: options)
  }

  /// `key ENDSWITH[options] text`.
  public func endsWith(_ text: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
    compare(.endsWith, .string(text), options: options)
  }

  /// `key LIKE[options] pattern` (`*` and `?` wildcards).
  public func like(_ pattern: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
    compare(.like, .string(pattern), options: options)
  }

  /// `key MATCHES[options] regex` (whole-string ICU regular expression).
  public func matches(_ regex: String, options: PredicateComparisonOptions = []) -> FetchPredicate {
    compare(.matches, .string(regex), options: options)
  }

  /// `key ==[options] text`, such as a case-insensitive equality (`==[c]`).
  public func equals(_ text: String, options: PredicateComparisonOptions) -> FetchPredicate {
    compare(.equalTo, .string(text), options: options)
  }

  /// Ascending or descending order ignoring case (and diacritics with `[.diacriticInsensitive]`).
  public func sorted(ascending: Bool = true, options: PredicateComparisonOptions) -> FetchSortDescriptor {
    FetchSortDescriptor(keyPath, ascending: ascending, options: options)
  }
}
