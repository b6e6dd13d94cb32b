import DataModel
import Foundation
import ModelCodegen
import TestSupport

/// The models the generator tests use, and generating from them.
enum CodegenFixtures {
  /// `Tests/Fixtures/models`.
  static let models = TestPaths.fixtures.appendingPathComponent("models")
  /// `Models/Tasks.xcdatamodeld`.
  static let tasks = TestPaths.tasksModel
  /// A model with every attribute type, a class hierarchy, an ordered relationship, a
  /// `category` entity, an entity without code generation and names that clash.
  static let library = models.appendingPathComponent("Library.xcdatamodeld")
  /// A model whose entities and properties are named like Swift keywords and common types.
  static let clashes = models.appendingPathComponent("Clashes.xcdatamodel")
  /// `Tests/Fixtures/golden`: the expected output, one folder per case.
  static let golden = TestPaths.fixtures.appendingPathComponent("golden")

  /// Reads a model, failing the test on any error.
  static func bundle(_ url: URL) throws -> ModelBundle {
    try ModelBundle(contentsOf: url.path)
  }

  /// Generates code for a model.
  static func generate(_ url: URL, _ options: CodegenOptions = CodegenOptions()) throws -> GeneratedCode {
    try ModelCodeGenerator.generate(bundle(url), options: options)
  }
}
