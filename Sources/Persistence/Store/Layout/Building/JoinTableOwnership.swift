import DataModel

/// Which relationship of a many-to-many pair names the join table (its *owner*).
///
/// Across two entities, the relationship declared on the entity whose name comes first (the
/// numbering's name order) owns the table, whatever the entity numbers: Apple's Contacts store
/// has `Z_22PARENTGROUPS` (`ABCDContact` 22 over `ABCDGroup` 19), Photos has `Z_26ASSETS`
/// (`Album` 26 over `Asset` 3), and ten more public schemas agree. On one entity, the
/// relationship whose name is greater (ordinal) owns it: Bookmarks V4/V5 name `Z_1FAVORITES`
/// after `favorites`, not `favoriteFolders` — one store only, so that half is [unverified].
/// Both halves read as one walk: entities in name order, each entity's relationships in reverse
/// name order, the first of a pair to be visited owning the table.
enum JoinTableOwnership {
  /// Whether `relationship` owns the join table it shares with `inverse`.
  static func owns(_ relationship: RelationshipID, over inverse: RelationshipID, in model: ModelVersion) -> Bool {
    if relationship.entity != inverse.entity {
      return EntityNumbering.precedes(model[relationship.entity].name, model[inverse.entity].name)
    }
    return model[inverse].name.utf16.lexicographicallyPrecedes(model[relationship].name.utf16)
  }
}
