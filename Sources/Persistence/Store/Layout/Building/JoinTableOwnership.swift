import DataModel

/// Which relationship of a many-to-many pair names the join table (its *owner*), and the order in
/// which Core Data visits an entity's relationships to decide it.
///
/// Core Data visits the entities in numbering order and each entity's properties in the order
/// of a hash table keyed by their names; the first relationship of a pair it visits owns the
/// table. Across two entities, that is the relationship declared on the entity whose name comes
/// first, whatever the entity numbers: Apple's Contacts store has `Z_22PARENTGROUPS`
/// (`ABCDContact` 22 over `ABCDGroup` 19), Photos has `Z_26ASSETS` (`Album` 26 over `Asset` 3),
/// and ten more public schemas agree. On one entity, it is the one visited first in
/// ``visitingOrder(of:in:)``. Three real pairs fix that order, and neither name order nor its
/// reverse fits them all: Bookmarks V4/V5 name `Z_1FAVORITES` after `favorites` (not
/// `favoriteFolders`); a messenger's `UserClient` has `Z_24IGNOREDCLIENTS` for
/// `ignoredByClients` ⇄ `ignoredClients` but `Z_24TRUSTEDBYCLIENTS` for `trustedByClients` ⇄
/// `trustedClients`. The visiting order below reproduces all three [inferred, see
/// `docs/store-format.md` §5].
enum JoinTableOwnership {
  /// Whether `relationship` owns the join table it shares with `inverse`. `visitingOrder` is the
  /// position of each property of `relationship`'s entity in ``visitingOrder(of:in:)``.
  static func owns(
    _ relationship: RelationshipID, over inverse: RelationshipID, in model: ModelVersion, visitingOrder: [String: Int]
  ) -> Bool {
    if relationship.entity != inverse.entity {
      return EntityNumbering.precedes(model[relationship.entity].name, model[inverse.entity].name)
    }
    let mine = visitingOrder[model[relationship].name] ?? Int.max
    let theirs = visitingOrder[model[inverse].name] ?? Int.max
    if mine != theirs { return mine < theirs }
    return model[inverse].name.utf16.lexicographicallyPrecedes(model[relationship].name.utf16)
  }

  /// The position of each stored property of an entity (inherited ones included) in the order
  /// Core Data visits them when it lays out join tables.
  ///
  /// It is the bucket order of the CFString hash table of ``PropertyHashOrder``, over the names
  /// of the entity's stored attributes and relationships, in a table sized for them plus the
  /// three columns every entity has (`Z_PK`, `Z_ENT`, `Z_OPT`): the entity's SQL description
  /// holds those too. Sized for the properties alone (as the index order is), the Bookmarks pair
  /// would come out the other way round; sized for three more, all three real pairs come out
  /// as their stores have them [inferred].
  static func visitingOrder(of entity: EntityID, in model: ModelVersion) -> [String: Int] {
    var names: [String] = []
    for id in model.ancestors(of: entity) + [entity] {
      names += model[id].attributes.filter(\.isPersistent).map(\.name)
      names += model[id].relationships.filter(\.isPersistent).map(\.name)
    }
    let order = PropertyHashOrder.order(selected: names, allNames: names, additionalKeyCount: 3)
    return Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
  }
}
