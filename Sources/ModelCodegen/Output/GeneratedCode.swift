import DataModel
/// What the generator made of a model: the files, in a fixed order, and its warnings.
public struct GeneratedCode: Sendable, Hashable {
  /// The model's name, which the files' first line names.
  public var modelName: String
  /// The version the classes were generated for.
  public var versionName: String
  /// The files: one per entity (or one for all of them), then the schema file.
  public var files: [GeneratedFile]
  /// Warnings: names renamed or escaped, types that could not be given, shared classes.
  public var diagnostics: [Diagnostic]

  public init(modelName: String, versionName: String, files: [GeneratedFile], diagnostics: [Diagnostic]) {
    self.modelName = modelName
    self.versionName = versionName
    self.files = files
    self.diagnostics = diagnostics
  }
}
