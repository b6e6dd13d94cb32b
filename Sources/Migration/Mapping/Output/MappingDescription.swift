import DataModel
import Foundation

extension LoadedMappingModel {
  /// The mapping as `modelc mapping show --format json` prints it: byte-identical from run to
  /// run, entity mappings in order, property mappings by name, expressions in NSExpression's
  /// format syntax (see `docs/mappings.md`).
  public var json: JSONValue {
    func side(_ match: VersionMatch) -> JSONValue {
      var object = JSONObjectBuilder()
      object.add("version", match.version.map(JSONValue.string) ?? .null)
      object.add("matchedBy", match.method.map { JSONValue.string($0.rawValue) } ?? .null)
      return object.value
    }
    func properties(_ mappings: [MappingModel.PropertyMapping]) -> JSONValue {
      .array(
        mappings.sorted { $0.destinationProperty < $1.destinationProperty }.map { mapping in
          var object = JSONObjectBuilder()
          object.add("name", .string(mapping.destinationProperty))
          object.add("expression", mapping.value.map { JSONValue.string($0.description) } ?? .null)
          return object.value
        })
    }
    var root = JSONObjectBuilder()
    root.add("source", side(source))
    root.add("destination", side(destination))
    root.add(
      "entityMappings",
      .array(
        mapping.entityMappings.map { entity in
          var object = JSONObjectBuilder()
          object.add("name", .string(entity.name))
          object.add("type", .string(entity.kind.rawValue))
          object.add("source", entity.sourceEntity.map(JSONValue.string) ?? .null)
          object.add("destination", entity.destinationEntity.map(JSONValue.string) ?? .null)
          object.add("policy", entity.policyClassName.map(JSONValue.string) ?? .null)
          object.add("sourceFilter", entity.sourceFilter.map(JSONValue.string) ?? .null)
          object.add("sourceExpression", entity.sourceExpression.map { JSONValue.string($0.description) } ?? .null)
          object.add("attributes", properties(entity.attributeMappings))
          object.add("relationships", properties(entity.relationshipMappings))
          object.add("userInfo", .object(entity.userInfo.keys.sorted().map { ($0, .string(entity.userInfo[$0]!)) }))
          return object.value
        }))
    return root.value
  }

  /// The mapping for people: both sides, then each entity mapping with its property mappings.
  public var text: String {
    func side(_ label: String, _ match: VersionMatch) -> String {
      guard let version = match.version, let method = match.method else {
        var line = "\(label): no version matches (orphaned)"
        if let closest = match.closestVersion {
          line += "; closest '\(closest)', differing in \(match.differences.map(\.description).joined(separator: ", "))"
        }
        if let note = match.note { line += "; \(note)" }
        return line
      }
      var line = "\(label): '\(version)' (matched by \(method == .hashes ? "version hashes" : "model path"))"
      if let note = match.note { line += "; \(note)" }
      return line
    }
    var lines = [
      "\(file.name) (\(file.format == .cdm ? "compiled mapping model" : "Xcode mapping model"), \(file.path))",
      side("source", source), side("destination", destination),
    ]
    for (index, entity) in mapping.entityMappings.enumerated() {
      let from = entity.sourceEntity ?? "—"
      let to = entity.destinationEntity ?? "—"
      lines.append("")
      lines.append("\(index + 1). \(entity.name) [\(entity.kind.rawValue)] \(from) → \(to)")
      if let policy = entity.policyClassName { lines.append("   policy: \(policy)") }
      if let filter = entity.sourceFilter { lines.append("   filter: \(filter)") }
      if let expression = entity.sourceExpression { lines.append("   source: \(expression)") }
      for property in entity.attributeMappings.sorted(by: { $0.destinationProperty < $1.destinationProperty }) {
        lines.append("   \(property.destinationProperty) = \(property.value.map(\.description) ?? "nil")")
      }
      for property in entity.relationshipMappings.sorted(by: { $0.destinationProperty < $1.destinationProperty }) {
        lines.append(
          "   \(property.destinationProperty) = \(property.value.map(\.description) ?? "nil") (relationship)")
      }
      for key in entity.userInfo.keys.sorted() { lines.append("   userInfo \(key) = \(entity.userInfo[key]!)") }
    }
    return lines.joined(separator: "\n")
  }
}
