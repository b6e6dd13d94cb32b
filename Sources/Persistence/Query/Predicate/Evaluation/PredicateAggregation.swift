import Foundation

/// The collection operators `@count`, `@sum`, `@avg`, `@min` and `@max` over evaluated elements;
/// the rules are documented on ``PredicateEvaluator``.
enum PredicateAggregation {
  /// The result of applying `op` to `elements`.
  static func apply(_ op: PredicateCollectionOperator, to elements: [PredicateOperand]) throws -> PredicateOperand {
    switch op {
    case .count:
      return .scalar(.integer(Int64(elements.count)))
    case .sum, .avg:
      return .scalar(try arithmetic(op, elements))
    case .min, .max:
      var best: PredicateValue?
      for element in elements {
        guard case .scalar(let value) = element else {
          throw PredicateEvaluationError.invalidOperand(
            "@\(op.rawValue) needs scalar values, not objects or collections")
        }
        if value.isNull { continue }
        guard let current = best else {
          best = value
          continue
        }
        let order = PredicateValueComparison.sortOrder(value, current, options: [])
        if order == (op == .min ? .orderedAscending : .orderedDescending) { best = value }
      }
      return .scalar(best ?? .null)
    }
  }

  private static func arithmetic(_ op: PredicateCollectionOperator, _ elements: [PredicateOperand]) throws
    -> PredicateValue
  {
    var integerSum: Int64 = 0
    var integerOverflow = false
    var doubleSum = 0.0
    var decimalSum = Decimal(0)
    var sawDouble = false
    var sawDecimal = false
    var count = 0
    func add(integer: Int64) {
      let (sum, overflow) = integerSum.addingReportingOverflow(integer)
      integerSum = sum
      integerOverflow = integerOverflow || overflow
      doubleSum += Double(integer)
      decimalSum += Decimal(integer)
    }
    for element in elements {
      let value: PredicateValue
      switch element {
      case .scalar(.null): continue
      case .scalar(let scalar): value = scalar
      default:
        throw PredicateEvaluationError.invalidOperand("@\(op.rawValue) needs numbers, not objects or collections")
      }
      count += 1
      switch value {
      case .bool(let flag):
        add(integer: flag ? 1 : 0)
      case .integer(let integer):
        add(integer: integer)
      case .double(let double):
        sawDouble = true
        doubleSum += double
        decimalSum += Decimal(string: double.description) ?? Decimal(double)
      case .decimal(let decimal):
        sawDecimal = true
        doubleSum += PredicateValueComparison.double(decimal)
        decimalSum += decimal
      default:
        throw PredicateEvaluationError.invalidOperand("@\(op.rawValue) needs numbers, found \(value.kindDescription)")
      }
    }
    if op == .avg {
      guard count > 0 else { return .null }
      if sawDecimal && !sawDouble { return .decimal(decimalSum / Decimal(count)) }
      return .double(doubleSum / Double(count))
    }
    if sawDouble || integerOverflow { return .double(doubleSum) }
    if sawDecimal { return .decimal(decimalSum) }
    return .integer(integerSum)
  }
}
