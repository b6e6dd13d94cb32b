import DataModel
import Persistence
import Testing

/// Builds purpose-made models from the `<entity>` (and `<composite>`) elements of a model file.
enum LayoutModel {
  /// The model version whose `<model>` element holds `body`.
  static func version(_ body: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ModelVersion
  {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23605" \
      systemVersion="24G720" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
      \(body)
      </model>
      """
    let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: "Layout")
    let errors = diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors)", sourceLocation: sourceLocation)
    return try #require(version, sourceLocation: sourceLocation)
  }

  /// The store layout of the model version whose `<model>` element holds `body`.
  static func schema(_ body: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> StoreSchema {
    StoreSchema(model: try version(body, sourceLocation: sourceLocation))
  }
}

extension StoreSchema {
  /// The `CREATE TABLE` statement of a table.
  func createTable(_ name: String) -> String? {
    table(named: name)?.createStatement()
  }

  /// The `CREATE INDEX` statements on a table, in creation order.
  func createIndexes(on table: String) -> [String] {
    indexes.filter { $0.table == table }.map { $0.createStatement() }
  }
}
