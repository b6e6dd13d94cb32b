/// Hands out the column names of one root table, numbering clashes as Core Data does.
///
/// Every property stored in the table (attributes and relationships of the root and all its
/// sub-entities, to-many relationships included, though they have no column of their own) takes
/// a *stem*: its uppercased name. When an earlier property of the table already took the stem,
/// the next free numeric suffix is appended: `CONTAINER`, `CONTAINER1`, `CONTAINER2`. Earlier
/// means: entities in numbering order, each entity's own properties by name. Seen in Apple's
/// Contacts store (`ZCONTAINER`/`ZCONTAINER1`/`ZCONTAINER2`, `Z_19PARENTGROUPS1` for a to-many)
/// and MoneyWell's (`ZACCOUNT`/`ZACCOUNT1`/`ZACCOUNT2`).
struct ColumnNameAllocator {
  private var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

  /// Reserves and returns the stem for a property name: the uppercased name, suffixed when taken.
  /// The column is `Z` + the stem.
  mutating func allocate(_ propertyName: String) -> String {
    let base = propertyName.uppercased()
    var stem = base
    var suffix = 0
    while taken.contains("Z" + stem) {
      suffix += 1
      stem = base + String(suffix)
    }
    taken.insert("Z" + stem)
    return stem
  }
}
