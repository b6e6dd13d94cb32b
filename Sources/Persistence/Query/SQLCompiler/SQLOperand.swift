import SQLite

/// The compiled form of a predicate expression: what one side of a comparison is in SQL.
///
/// Expressions compile relative to a scope (the fetched row `t`, or the current element of an
/// `EXISTS` subquery); SQL text may name the aliases of enclosing scopes, since every subquery
/// is correlated and aliases are unique across a whole query.
enum SQLOperand {
  /// A value known when compiling: a literal, a format argument, or `nil` (an array is a
  /// constant collection).
  case constant(PredicateValue)
  /// One value per row: an attribute's column, an aggregate, a scalar subquery.
  case scalar(SQLScalar)
  /// An object (or none): the fetched object, a to-one destination, an element.
  case object(SQLObjectReference)
  /// The objects or values reached through a to-many relationship, as rows of a subquery.
  indirect case collection(SQLCollection)
  /// A literal aggregate with non-constant members, such as `{$low, 10}`.
  case list([SQLOperand])
}

/// An SQL expression yielding one value, NULL for nil.
struct SQLScalar {
  /// The expression.
  var sql: SQLiteSQL
  /// What its values are.
  var kind: SQLValueKind
}

/// An object in a compiled query: the `Z_PK` it has (NULL when there is none) and its entity.
struct SQLObjectReference {
  /// An expression for the object's `Z_PK`; NULL when there is no object.
  var key: SQLiteSQL
  /// The entity the object is known to be of (or of a sub-entity of).
  var entity: EntityID
  /// An expression for the object's `Z_ENT` when ``entity`` has sub-entities; nil when the
  /// object is exactly of ``entity``.
  var entityNumber: SQLiteSQL?
  /// The alias of the object's row in its root table, when that row is in the query already
  /// (its columns are read directly rather than through a subquery).
  var rowAlias: String?
  /// Whether there may be no object (a to-one relationship may be empty).
  var isNullable: Bool
}

/// The elements of a collection: the rows of `SELECT … FROM from WHERE conditions`, and what
/// each element is in terms of those rows.
struct SQLCollection {
  /// The FROM clause: the tables reached, joined.
  var from: SQLiteSQL
  /// Conditions tying the rows to the enclosing row, and filters (a `SUBQUERY`'s predicate).
  var conditions: [SQLiteSQL]
  /// The element, in the scope of the subquery's rows.
  var element: SQLOperand
  /// A condition of the enclosing scope under which the expression is nil rather than a
  /// collection: a to-one relationship on the way to the first to-many one is empty.
  var nilWhen: SQLiteSQL?
  /// Whether a key was read through the collection (`tags.name`, not `tags`): a comparison
  /// without a modifier then means `ANY`.
  var crossesToMany: Bool

  /// `EXISTS (SELECT 1 FROM … WHERE … AND condition)`.
  func exists(where condition: SQLCondition) -> SQLCondition {
    var terms = conditions
    switch condition {
    case .constant(false): return .constant(false)
    case .constant(true): break
    case .sql(let sql): terms.append(sql)
    }
    return .sql("EXISTS (SELECT 1 FROM " + from + whereClause(terms) + ")")
  }

  /// `(SELECT aggregate FROM … WHERE …)`.
  func select(_ aggregate: SQLiteSQL) -> SQLiteSQL {
    "(SELECT " + aggregate + " FROM " + from + whereClause(conditions) + ")"
  }

  private func whereClause(_ terms: [SQLiteSQL]) -> SQLiteSQL {
    terms.isEmpty ? "" : " WHERE " + terms.joined(separator: " AND ")
  }
}

/// Where expressions are compiled: what `SELF` (and so a bare key path) means, and the
/// element variables of enclosing `SUBQUERY`s.
struct QueryScope {
  /// `SELF`: the fetched object, or the current element inside a `SUBQUERY`.
  var evaluatedObject: SQLOperand
  /// `$name` bindings.
  var variables: [String: SQLOperand]
}
