import DataModel
import Foundation

extension MappingModel {
  /// Reads mapping models a program carries in its code: the `mappingModelFiles` of the schema
  /// file `modelc generate --mappings` (and the build plugin) writes, each a file name and the
  /// file's bytes in base64 (line breaks allowed), matched to the versions of `model`.
  ///
  /// - Throws: ``MappingReadError`` naming the file when its bytes are not base64 or not a
  ///   mapping model, or when it matches no version of `model` (it was generated for another
  ///   model, or the model was edited since).
  ///
  /// ```swift
  /// let mappings = try MappingModel.embedded(TasksModel.mappingModelFiles, model: TasksModel.bundle())
  /// ```
  public static func embedded(_ files: [(name: String, base64: String)], model: ModelBundle) throws -> [MappingModel] {
    let hashes = BundleVersionHashes(model)
    return try files.map { file in
      let path = "<embedded \(file.name)>"
      guard let data = Data(base64Encoded: file.base64, options: .ignoreUnknownCharacters) else {
        throw MappingReadError.at(
          SourceLocation(file: path, line: 1, column: 1), "unreadable-file",
          "the embedded mapping model '\(file.name)' is not base64",
          fix: "generate the schema file again with `modelc generate --mappings`")
      }
      let source = try MappingModelSource.read(data, path: path, name: file.name)
      let loaded = MappingModelLoader.load(source, bundle: model, hashes: hashes)
      if let problem = MappingOrphan.diagnostic(for: loaded, bundle: model) {
        throw MappingReadError(problem)
      }
      return loaded.mapping
    }
  }
}
