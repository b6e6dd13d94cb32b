import Foundation
import Persistence

/// A test object: a dictionary of key values, optionally with an identity. Immutable, so it can
/// be shared between parameterized test cases.
final class Record: PredicateEvaluable, CustomStringConvertible, @unchecked Sendable {
  let values: [String: PredicateRuntimeValue]
  let identity: PredicateValue?

  init(_ values: [String: PredicateRuntimeValue] = [:], identity: PredicateValue? = nil) {
    self.values = values
    self.identity = identity
  }

  func predicateValue(forKey key: String) throws -> PredicateRuntimeValue {
    guard let value = values[key] else { throw PredicateEvaluationError.unknownKey(key) }
    return value
  }

  var predicateIdentity: PredicateValue? { identity }

  var description: String { "Record(\(values.keys.sorted()))" }
}

/// A key path expression.
func key(_ path: PredicateKeyPath) -> FetchExpression { .keyPath(path) }

/// A constant expression.
func const(_ value: PredicateValue) -> FetchExpression { .constant(value) }

/// A comparison predicate.
func cmp(
  _ left: FetchExpression, _ op: PredicateOperator, _ right: FetchExpression,
  _ modifier: PredicateModifier = .direct, _ options: PredicateComparisonOptions = []
) -> FetchPredicate {
  .compare(left, op, right, modifier: modifier, options: options)
}

/// A date from seconds since 2001-01-01.
func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }
