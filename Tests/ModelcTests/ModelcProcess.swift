import Foundation
import TestSupport

/// Runs the built `modelc` executable, as a user would.
enum ModelcProcess {
  /// What a run printed and how it ended.
  typealias Result = ProcessRun

  /// The built `modelc`, when built.
  static let executable: URL? = TestPaths.executable(named: "modelc")

  static let absentReason =
    "the modelc executable was not found next to the test bundle; build it with `swift build` to run the command-line tests"

  /// Starts `modelc` with the arguments, without waiting for it.
  static func start(_ arguments: [String]) throws -> ProcessRun.Started {
    guard let executable else { throw CocoaError(.fileNoSuchFile) }
    return try ProcessRun.start(executable, arguments)
  }

  /// Runs `modelc` to completion.
  static func run(_ arguments: [String]) throws -> Result {
    try ProcessRun.finish(try start(arguments))
  }
}

/// A fresh directory, removed when released.
final class ScratchDirectory {
  let url: URL

  init() {
    url = TestPaths.temporaryDirectory("modelc-cli")
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes a file and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let url = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Writes a one-version model (`<name>.xcdatamodel/contents`) and returns its path.
  func model(_ name: String, _ entities: String) throws -> String {
    _ = try write(
      "\(name).xcdatamodel/contents",
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
      \(entities)
      </model>
      """)
    return path("\(name).xcdatamodel")
  }

  /// Writes a model bundle (`<name>.xcdatamodeld`) with one `.xcdatamodel` per version, in
  /// order, the last one current, and returns its path.
  func bundle(_ name: String, versions: [(name: String, entities: String)]) throws -> String {
    for version in versions {
      _ = try write(
        "\(name).xcdatamodeld/\(version.name).xcdatamodel/contents",
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
        \(version.entities)
        </model>
        """)
    }
    _ = try write(
      "\(name).xcdatamodeld/.xccurrentversion",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>_XCCurrentVersionName</key>
        <string>\(versions.last?.name ?? "").xcdatamodel</string>
      </dict>
      </plist>
      """)
    return path("\(name).xcdatamodeld")
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
