import Foundation

/// A fresh directory in the test run's scratch folder, removed on deinit.
public final class TemporaryDirectory {
  public let url: URL

  public init() throws {
    url = TestPaths.temporaryDirectory("modelc-sqlite")
    guard FileManager.default.fileExists(atPath: url.path) else { throw CocoaError(.fileWriteUnknown) }
  }

  /// The path of `name` inside the directory.
  public func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
