import Foundation

/// Where the package's fixtures and the shared corpus of real models live, for every test target.
public enum TestPaths {
  /// The package's root directory.
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `Tests/Fixtures`: models and files written for the tests.
  public static let fixtures: URL = packageRoot.appendingPathComponent("Tests/Fixtures")

  /// `Models/Tasks.xcdatamodeld`, the task list's model.
  public static let tasksModel: URL = packageRoot.appendingPathComponent("Models/Tasks.xcdatamodeld")

  /// The shared corpus of real models and stores, when it is present: `$MODELC_CORPUS` when that
  /// is set (to anything but the empty text), else `../shared/corpus`. A user's clone usually
  /// lacks it; tests over it are then skipped. `MODELC_CORPUS=/nonexistent swift test` runs the
  /// tests as a fresh clone does, with the corpus hidden.
  public static let corpus: URL? = {
    let candidate: URL
    if let override = ProcessInfo.processInfo.environment["MODELC_CORPUS"], !override.isEmpty {
      candidate = URL(fileURLWithPath: override)
    } else {
      candidate = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }
    return FileManager.default.fileExists(atPath: candidate.appendingPathComponent("models").path) ? candidate : nil
  }()

  /// Why corpus tests are skipped, for the skip message.
  public static let corpusAbsentReason =
    "the shared corpus (../shared/corpus or $MODELC_CORPUS) is absent, so tests over real Core Data models are skipped"

  /// Every model bundle in the corpus: `.xcdatamodeld` bundles and lone `.xcdatamodel` directories
  /// not inside a bundle, sorted by path.
  public static func corpusModels() -> [URL] {
    guard let corpus else { return [] }
    let root = corpus.appendingPathComponent("models")
    var result: [URL] = []
    let projects = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    for project in projects.sorted() {
      let projectURL = root.appendingPathComponent(project)
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: projectURL.path)) ?? []
      for entry in entries.sorted() where entry.hasSuffix(".xcdatamodeld") || entry.hasSuffix(".xcdatamodel") {
        result.append(projectURL.appendingPathComponent(entry))
      }
    }
    return result
  }

  /// A store in the corpus (`stores/<project>/<file>`), when present.
  public static func corpusStore(_ project: String, _ file: String) -> URL? {
    guard let corpus else { return nil }
    let url = corpus.appendingPathComponent("stores").appendingPathComponent(project).appendingPathComponent(file)
    return FileManager.default.fileExists(atPath: url.path) ? url : nil
  }

  /// A fresh temporary directory inside this test process's scratch folder, which is removed
  /// when the process exits; callers may remove it sooner.
  public static func temporaryDirectory(_ label: String = "modelc-test") -> URL {
    let url = scratchRoot.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The folder that holds every ``temporaryDirectory(_:)`` of this process. Made on first use,
  /// with an exit handler that removes it, so that a test run leaves nothing behind in the
  /// system's temporary folder however its tests end (a killed run leaves its one folder).
  private static let scratchRoot: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "modelc-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TestPaths.scratchRoot) }
    return url
  }()
}

extension TestPaths {
  /// A built executable of this package (`modelc`, `task`), next to the test binary; nil when
  /// it has not been built.
  public static func executable(named name: String) -> URL? {
    var candidates: [URL] = []
    let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      candidates.append(directory.appendingPathComponent(name))
      directory = directory.deletingLastPathComponent()
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}
