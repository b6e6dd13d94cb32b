/// Quoting of SQL identifiers (table, column, index, savepoint names).
///
/// Values are always bound as parameters, but names cannot be: they must appear in the SQL
/// text. Model-derived names like `ZTASK` are quoted so that reserved words (`ORDER`, `GROUP`)
/// and unusual characters are safe; embedded double quotes are doubled per the SQL standard.
public enum SQLiteIdentifier {
  /// `name` in double quotes with every `"` doubled: `we"ird` becomes `"we""ird"`.
  ///
  /// - Precondition: `name` contains no NUL character (SQLite would end the SQL text there).
  public static func quote(_ name: String) -> String {
    precondition(!name.utf8.contains(0), "SQL identifiers cannot contain NUL characters")
    var quoted = "\""
    quoted.reserveCapacity(name.utf8.count + 2)
    for character in name.unicodeScalars {
      if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
    }
    quoted += "\""
    return quoted
  }
}
