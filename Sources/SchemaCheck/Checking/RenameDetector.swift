import DataModel

/// Finds removals and additions in one step that look like a rename made without a renaming
/// identifier, which drops the old values and starts the new property (or entity) empty.
///
/// A removed and an added property of the same entity pair up when they are of the same kind
/// and type (attributes: the attribute type; relationships: the same destination and
/// cardinality) and at least one reason holds: their names are similar (equal ignoring case, one
/// containing the other, or a small edit distance), they sit at the same position among the
/// entity's properties, or they are the only removed and added property of that type. Entities
/// pair up on a similar name or the same attribute names. Each removal pairs with at most one
/// addition, the one with the most reasons.
struct RenameDetector {
  let step: VersionStep
  let diff: ModelDiff

  private var source: ModelVersion { step.source }
  private var destination: ModelVersion { step.destination }

  func findings() -> [Finding] {
    entityRenames() + propertyRenames()
  }

  // MARK: - Properties

  private struct Candidate {
    var name: String
    var signature: String
    var position: Int
    var location: SourceLocation?
  }

  private func propertyRenames() -> [Finding] {
    var findings: [Finding] = []
    for entityDiff in diff.entities {
      guard let sourceName = entityDiff.sourceEntity, let destinationName = entityDiff.destinationEntity,
        let sourceEntity = source.entity(named: sourceName),
        let destinationEntity = destination.entity(named: destinationName)
      else { continue }
      let removedAttributes = Set(
        entityDiff.changes.filter { $0.kind == .attributeRemoved && $0.changesHash }.compactMap(\.property))
      let addedAttributes = Set(
        entityDiff.changes.filter { $0.kind == .attributeAdded && $0.changesHash }.compactMap(\.property))
      let removedRelationships = Set(
        entityDiff.changes.filter { $0.kind == .relationshipRemoved && $0.changesHash }.compactMap(\.property))
      let addedRelationships = Set(
        entityDiff.changes.filter { $0.kind == .relationshipAdded && $0.changesHash }.compactMap(\.property))
      let removed =
        sourceEntity.attributes.enumerated().filter { removedAttributes.contains($0.element.name) }.map {
          Candidate(
            name: $0.element.name, signature: "attribute \($0.element.attributeType.rawValue)", position: $0.offset,
            location: $0.element.location)
        }
        + sourceEntity.relationships.enumerated().filter { removedRelationships.contains($0.element.name) }.map {
          Candidate(
            name: $0.element.name, signature: relationshipSignature($0.element, inSource: true), position: $0.offset,
            location: $0.element.location)
        }
      let added =
        destinationEntity.attributes.enumerated().filter { addedAttributes.contains($0.element.name) }.map {
          Candidate(
            name: $0.element.name, signature: "attribute \($0.element.attributeType.rawValue)", position: $0.offset,
            location: $0.element.location)
        }
        + destinationEntity.relationships.enumerated().filter { addedRelationships.contains($0.element.name) }.map {
          Candidate(
            name: $0.element.name, signature: relationshipSignature($0.element, inSource: false), position: $0.offset,
            location: $0.element.location)
        }
      for (old, new, reasons) in pairs(removed: removed, added: added) {
        let isAttribute = old.signature.hasPrefix("attribute")
        let kind = isAttribute ? "attribute" : "relationship"
        findings.append(
          Finding(
            rule: RuleCatalogue.possibleRename,
            message:
              "\(kind) '\(destinationName).\(old.name)' was removed and '\(new.name)' added in \(step.title); this looks like a rename (\(reasons.joined(separator: ", "))) but '\(new.name)' has no renaming identifier, so the stored values are dropped",
            help:
              "if it is a rename, add elementID=\"\(old.name)\" to <\(kind) name=\"\(new.name)\"> in '\(destination.name)' (Xcode: Data Model inspector › Versioning › Renaming ID)",
            location: new.location, model: step.modelPath, fromVersion: source.name, toVersion: destination.name,
            entity: destinationName, property: new.name))
      }
    }
    return findings
  }

  /// A relationship's kind: the destination (by its name in the newer version) and cardinality.
  private func relationshipSignature(_ relationship: RelationshipDescription, inSource: Bool) -> String {
    var destinationName = relationship.destinationEntityName
    if inSource {
      destinationName =
        diff.entities.first { $0.sourceEntity == destinationName }?.destinationEntity ?? destinationName
    }
    return "relationship \(relationship.isToMany ? "to-many" : "to-one") \(destinationName)"
  }

  /// Pairs removals with additions of the same signature, most reasons first.
  private func pairs(removed: [Candidate], added: [Candidate]) -> [(Candidate, Candidate, [String])] {
    var options: [(old: Int, new: Int, reasons: [String])] = []
    for (oldIndex, old) in removed.enumerated() {
      for (newIndex, new) in added.enumerated() where old.signature == new.signature {
        var reasons: [String] = []
        let type = old.signature.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
        if let similarity = Self.similarity(old.name, new.name) { reasons.append(similarity) }
        if old.position == new.position { reasons.append("same position") }
        if removed.filter({ $0.signature == old.signature }).count == 1
          && added.filter({ $0.signature == old.signature }).count == 1
        {
          reasons.append(
            "the only \(type) \(old.signature.hasPrefix("attribute") ? "attribute" : "relationship") removed and added")
        }
        if !reasons.isEmpty {
          reasons.insert("same \(old.signature.hasPrefix("attribute") ? "type \(type)" : type)", at: 0)
          options.append((oldIndex, newIndex, reasons))
        }
      }
    }
    options.sort {
      $0.reasons.count != $1.reasons.count ? $0.reasons.count > $1.reasons.count : ($0.old, $0.new) < ($1.old, $1.new)
    }
    var usedOld = Set<Int>()
    var usedNew = Set<Int>()
    var result: [(Candidate, Candidate, [String])] = []
    for option in options where !usedOld.contains(option.old) && !usedNew.contains(option.new) {
      usedOld.insert(option.old)
      usedNew.insert(option.new)
      result.append((removed[option.old], added[option.new], option.reasons))
    }
    return result.sorted { $0.1.position < $1.1.position }
  }

  /// Why two names look alike, or nil.
  static func similarity(_ old: String, _ new: String) -> String? {
    let a = old.lowercased()
    let b = new.lowercased()
    if a == b { return "names differ only in case" }
    if min(a.count, b.count) >= 3 && (a.contains(b) || b.contains(a)) { return "one name contains the other" }
    let distance = EditDistance.between(a, b)
    if distance <= max(1, min(a.count, b.count) / 3) {
      return "similar names (\(distance) edit\(distance == 1 ? "" : "s") apart)"
    }
    return nil
  }

  // MARK: - Entities

  private func entityRenames() -> [Finding] {
    let removed = diff.entities.filter { $0.destinationEntity == nil }.compactMap(\.sourceEntity).compactMap {
      source.entity(named: $0)
    }
    let added = diff.entities.filter { $0.sourceEntity == nil }.compactMap(\.destinationEntity).compactMap {
      destination.entity(named: $0)
    }
    var usedNew = Set<String>()
    var findings: [Finding] = []
    for old in removed {
      let oldAttributes = Set(source.allAttributes(of: old.id).filter(\.isPersistent).map(\.name))
      for new in added where !usedNew.contains(new.name) {
        var reasons: [String] = []
        if let similarity = Self.similarity(old.name, new.name) { reasons.append(similarity) }
        let newAttributes = Set(destination.allAttributes(of: new.id).filter(\.isPersistent).map(\.name))
        if !oldAttributes.isEmpty && oldAttributes == newAttributes { reasons.append("the same attributes") }
        guard !reasons.isEmpty else { continue }
        usedNew.insert(new.name)
        findings.append(
          Finding(
            rule: RuleCatalogue.possibleRename,
            message:
              "entity '\(old.name)' was removed and '\(new.name)' added in \(step.title); this looks like a rename (\(reasons.joined(separator: ", "))) but '\(new.name)' has no renaming identifier, so its objects are deleted",
            help:
              "if it is a rename, add elementID=\"\(old.name)\" to <entity name=\"\(new.name)\"> in '\(destination.name)' (Xcode: Data Model inspector › Versioning › Renaming ID)",
            location: new.location, model: step.modelPath, fromVersion: source.name, toVersion: destination.name,
            entity: new.name))
        break
      }
    }
    return findings
  }
}
