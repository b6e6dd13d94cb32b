/// String-literal and interpolation support for ``SQLiteSQL``: the injection-proof builder.
extension SQLiteSQL: ExpressibleByStringInterpolation {
  /// A literal is SQL text with no arguments.
  public init(stringLiteral value: String) {
    self.init(verbatim: value)
  }

  /// Builds text and arguments from an interpolated literal.
  public init(stringInterpolation: StringInterpolation) {
    self = stringInterpolation.sql
  }

  /// Collects literal segments as text and interpolations as placeholders, quoted names or
  /// nested fragments.
  public struct StringInterpolation: StringInterpolationProtocol {
    var sql: SQLiteSQL

    /// Reserves room for the literal text.
    public init(literalCapacity: Int, interpolationCount: Int) {
      sql = SQLiteSQL(verbatim: "")
      sql.text.reserveCapacity(literalCapacity + interpolationCount)
      sql.arguments.reserveCapacity(interpolationCount)
    }

    /// Literal text is SQL.
    public mutating func appendLiteral(_ literal: String) {
      sql.text += literal
    }

    /// A value becomes a `?` placeholder and a bound argument, never SQL text.
    public mutating func appendInterpolation(_ value: some SQLiteValueConvertible) {
      sql.text += "?"
      sql.arguments.append(value.sqliteValue)
    }

    /// An optional value becomes a `?` placeholder bound to the value or to `NULL`.
    public mutating func appendInterpolation(_ value: (some SQLiteValueConvertible)?) {
      sql.text += "?"
      sql.arguments.append(value?.sqliteValue ?? .null)
    }

    /// A nested fragment is embedded with its arguments.
    public mutating func appendInterpolation(_ fragment: SQLiteSQL) {
      sql.append(fragment)
    }

    /// A table, column, index or savepoint name, double-quoted (see ``SQLiteIdentifier``).
    public mutating func appendInterpolation(identifier name: String) {
      sql.text += SQLiteIdentifier.quote(name)
    }

    /// A comma-separated list of quoted names: `"a", "b", "c"`.
    public mutating func appendInterpolation(identifiers names: some Sequence<String>) {
      sql.text += names.map(SQLiteIdentifier.quote).joined(separator: ", ")
    }

    /// A value rendered as a SQL literal, for the few places SQLite does not accept
    /// parameters (`DEFAULT` clauses in `CREATE TABLE`, `PRAGMA` values).
    ///
    /// Prefer a plain `\(value)` everywhere else. See ``SQLiteValue/sqlLiteral``.
    public mutating func appendInterpolation(literal value: SQLiteValue) {
      sql.text += value.sqlLiteral
    }
  }
}
