import Foundation
import Persistence
import TestSupport

/// A store file of its own in a temporary folder, and a container on it: where suites that write
/// to a store start. The folder goes when the value does.
struct TemporaryStore {
  let directory: TemporaryDirectory
  let url: URL
  let container: PersistentContainer

  init(model: ModelVersion, fileName: String) throws {
    directory = try TemporaryDirectory()
    url = directory.url.appendingPathComponent(fileName)
    container = try PersistentContainer(model: model, options: .file(url))
  }
}
