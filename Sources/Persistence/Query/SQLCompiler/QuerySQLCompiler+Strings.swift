import SQLite

/// The string operators: `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` and `MATCHES` between two
/// strings, through the SQL functions of ``QueryFunctions``.
extension QuerySQLCompiler {
  /// `left OP[options] right` for strings; false unless both sides are strings (nil included,
  /// as in the evaluator).
  func stringOperator(
    _ op: PredicateOperator, _ left: SQLOperand, _ right: SQLOperand, _ options: PredicateComparisonOptions
  ) -> SQLCondition? {
    guard isString(left), isString(right) else { return .constant(false) }
    if case .constant(let a) = left, case .constant(let b) = right {
      return decided(.compare(.constant(a), op, .constant(b), options: options))
    }
    let function: String
    switch op {
    case .contains, .in: function = "modelc_contains"
    case .beginsWith: function = "modelc_beginswith"
    case .endsWith: function = "modelc_endswith"
    case .like: function = "modelc_like"
    case .matches:
      function = "modelc_matches"
      // An invalid pattern is the evaluator's error to report, with its own message.
      if case .constant(.string(let pattern)) = right {
        let source = PredicateStringFolding.fold(
          pattern, caseInsensitive: false, diacriticInsensitive: options.contains(.diacriticInsensitive))
        guard
          (try? PredicateRegexCache.shared.expression(
            for: source, caseInsensitive: options.contains(.caseInsensitive))) != nil
        else { return nil }
      }
    default:
      return nil
    }
    return .sql(
      SQLiteSQL(verbatim: function + "(") + stringArgument(left) + ", " + stringArgument(right)
        + ", \(QueryFunctions.flags(options)))")
  }

  private func stringArgument(_ value: SQLOperand) -> SQLiteSQL {
    switch value {
    case .scalar(let scalar): scalar.sql
    case .constant(let constant): "\(constant.sqliteArgument)"
    default: "NULL"
    }
  }
}

extension PredicateValue {
  /// A string constant as an SQL argument (NULL for anything else).
  fileprivate var sqliteArgument: SQLiteValue {
    if case .string(let string) = self { return .text(string) }
    return .null
  }
}
