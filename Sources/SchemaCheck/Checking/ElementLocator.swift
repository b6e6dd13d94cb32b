import DataModel
import Foundation

/// Finds the XML element of an entity, property or whole version, for a finding's location.
///
/// Entities, attributes and relationships carry the location the reader recorded. A version has
/// none of its own, so its `<model>` element is found in the `contents` file.
struct ElementLocator {
  let version: ModelVersion

  /// The entity's `<entity>` element.
  func entity(_ name: String) -> SourceLocation? {
    version.entity(named: name)?.location
  }

  /// The property's `<attribute>` or `<relationship>` element, on the entity or an ancestor;
  /// the entity's element when the property is not found.
  func property(_ name: String?, of entityName: String) -> SourceLocation? {
    guard let entity = version.entity(named: entityName) else { return nil }
    guard let name else { return entity.location }
    if let attribute = version.attribute(named: name, in: entity.id) { return attribute.location ?? entity.location }
    if let relationship = version.relationship(named: name, in: entity.id) {
      return relationship.relationship.location ?? entity.location
    }
    return entity.location
  }

  /// The version's `<model>` element (line 1, column 1 when it cannot be found).
  var model: SourceLocation? {
    guard let path = version.sourcePath else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      return SourceLocation(file: path, line: 1, column: 1)
    }
    let text = String(decoding: data, as: UTF8.self)
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let range = line.range(of: "<model") {
        return SourceLocation(
          file: path, line: index + 1,
          column: line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1)
      }
    }
    return SourceLocation(file: path, line: 1, column: 1)
  }

  /// The first of: the property, the entity, the version.
  func best(entity: String?, property: String?) -> SourceLocation? {
    if let entity, let location = self.property(property, of: entity) { return location }
    return model
  }
}
