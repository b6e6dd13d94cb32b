import SQLite

/// A compiled predicate: an SQL condition, or a truth value known when compiling.
///
/// SQL conditions here are read with one rule: 1 is true, 0 and NULL are false. `AND` and `OR`
/// keep that rule by themselves (NULL behaves as false in both), so only negation needs care:
/// ``negated`` writes `(x) IS NOT 1`, which is true for 0 and NULL alike, where `NOT x` would
/// leave NULL as NULL (false). That is how `NOT (notes == "a")` matches objects whose notes
/// are nil, as the in-memory evaluator says it must.
///
/// Known truth values fold away (`x AND FALSE` is false), so what cannot match never reaches
/// SQLite and what always matches costs nothing.
enum SQLCondition {
  /// Always true or always false.
  case constant(Bool)
  /// A condition to evaluate per row.
  case sql(SQLiteSQL)

  /// The condition as SQL text (`1` or `0` for constants).
  var sql: SQLiteSQL {
    switch self {
    case .constant(let value): SQLiteSQL(verbatim: value ? "1" : "0")
    case .sql(let sql): sql
    }
  }

  /// The negation, true where this condition is false or NULL.
  var negated: SQLCondition {
    switch self {
    case .constant(let value): .constant(!value)
    case .sql(let sql): .sql("(" + sql + ") IS NOT 1")
    }
  }

  /// All of the conditions; true for none.
  static func all(_ parts: [SQLCondition]) -> SQLCondition {
    var terms: [SQLiteSQL] = []
    for part in parts {
      switch part {
      case .constant(false): return .constant(false)
      case .constant(true): continue
      case .sql(let sql): terms.append(sql)
      }
    }
    if terms.isEmpty { return .constant(true) }
    if terms.count == 1 { return .sql(terms[0]) }
    return .sql("(" + terms.joined(separator: " AND ") + ")")
  }

  /// Any of the conditions; false for none.
  static func any(_ parts: [SQLCondition]) -> SQLCondition {
    var terms: [SQLiteSQL] = []
    for part in parts {
      switch part {
      case .constant(true): return .constant(true)
      case .constant(false): continue
      case .sql(let sql): terms.append(sql)
      }
    }
    if terms.isEmpty { return .constant(false) }
    if terms.count == 1 { return .sql(terms[0]) }
    return .sql("(" + terms.joined(separator: " OR ") + ")")
  }
}
