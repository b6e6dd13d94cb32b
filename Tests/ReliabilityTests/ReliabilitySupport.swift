import Foundation
import Persistence
import SQLite
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The executables, scratch folders and privilege handling the reliability tests share.
enum Reliability {
  static let modelc = TestPaths.executable(named: "modelc")
  static let task = TestPaths.executable(named: "task")
  static let executablesAbsent =
    "the modelc and task executables are not built next to the tests; run `swift build` first"
  static var executablesBuilt: Bool { modelc != nil && task != nil }

  static let tasksModel = TestPaths.tasksModel.path
  static let bundle: ModelBundle = {
    do {
      return try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    } catch {
      fatalError("the Tasks model does not load: \(error)")
    }
  }()

  /// Root ignores file permissions (CAP_DAC_OVERRIDE), so permission cases run the executable
  /// through `setpriv` with those capabilities dropped; nil when that is impossible, with why.
  static let permissionWrapper: (prefix: [String], skipReason: String?) = {
    guard geteuid() == 0 else { return ([], nil) }
    let setpriv = "/usr/bin/setpriv"
    guard FileManager.default.isExecutableFile(atPath: setpriv) else {
      return ([], "running as root without /usr/bin/setpriv, so file permissions cannot be enforced")
    }
    return ([setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner"], nil)
  }()

  /// Runs a built executable (`modelc` or `task`); with `enforcingPermissions`, as a process that
  /// file permissions apply to even when the tests run as root.
  static func run(
    _ executable: URL, _ arguments: [String], enforcingPermissions: Bool = false,
    environment: [String: String?] = [:]
  ) throws -> ProcessRun {
    if enforcingPermissions, !permissionWrapper.prefix.isEmpty {
      let wrapper = permissionWrapper.prefix
      return try ProcessRun.run(
        URL(fileURLWithPath: wrapper[0]), Array(wrapper.dropFirst()) + [executable.path] + arguments,
        environment: environment)
    }
    return try ProcessRun.run(executable, arguments, environment: environment)
  }

  /// A store at the current Tasks version with a few seeded objects, made by `modelc store seed`.
  static func seededStore(in directory: URL, name: String = "Tasks.sqlite", rows: Int = 5) throws -> URL {
    let url = directory.appendingPathComponent(name)
    let result = try ProcessRun.run(
      modelc!, ["store", "seed", url.path, "--model", tasksModel, "--rows", "\(rows)", "--seed", "7"])
    guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["stderr": result.error]) }
    return url
  }

  /// The store's objects as `modelc store export` prints them.
  static func export(_ url: URL) throws -> ProcessRun {
    try ProcessRun.run(modelc!, ["store", "export", url.path, "--model", tasksModel, "--format", "json"])
  }

  /// `PRAGMA integrity_check`'s answer for a store file.
  static func integrity(_ url: URL) throws -> String {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    return try connection.firstRow("PRAGMA integrity_check") { $0.text(at: 0) } ?? "no answer"
  }
}

/// A fresh folder, removed (after restoring write permission) when released.
final class Scratch {
  let url: URL

  init(_ label: String = "reliability") {
    url = TestPaths.temporaryDirectory(label)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Writes bytes to a file and returns its path.
  @discardableResult
  func write(_ name: String, _ bytes: [UInt8]) throws -> String {
    let url = file(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
    return url.path
  }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try write(name, Array(text.utf8))
  }

  deinit {
    if let enumerator = FileManager.default.enumerator(atPath: url.path) {
      for case let relative as String in enumerator {
        chmod(url.appendingPathComponent(relative).path, 0o755)
      }
    }
    chmod(url.path, 0o755)
    try? FileManager.default.removeItem(at: url)
  }
}

extension Reliability {
  /// A store at the first Tasks version (`Tasks`) holding `count` tasks, written with plain SQL
  /// for speed: what `modelc migrate` and `task` then bring to the current version.
  static func versionOneStore(at url: URL, count: Int) throws {
    _ = try PersistentContainer(bundle: bundle, versionName: "Tasks", options: .file(url, migrator: nil))
    let connection = try SQLiteConnection(.file(url.path))
    try connection.transaction(.immediate) {
      let insert = try connection.prepare(
        "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZDUEDATE, ZTITLE, ZID) VALUES (?, 1, 1, ?, ?, ?, ?, ?)"
      )
      for index in 1...max(1, count) {
        let id = withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) } + [UInt8](repeating: 7, count: 8)
        try insert.execute([
          .integer(Int64(index)), .integer(Int64(index % 2)), .integer(Int64(index % 3 + 1)),
          index % 5 == 0 ? .null : .real(700_000_000 + Double(index)), .text("Task \(index) ✓ café"), .blob(id),
        ])
      }
      try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(Int64(count)) WHERE Z_ENT = 1")
    }
    try connection.close()
  }

  /// Whether this machine lets an unprivileged process mount a small file system in a private
  /// namespace (`unshare -rm`), which the disk-full tests need; nil when it does, else why not.
  static let smallFileSystemUnavailable: String? = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
      return "/usr/bin/unshare is missing, so no small file system can be made to fill"
    }
    let probe = try? ProcessRun.run(
      URL(fileURLWithPath: "/usr/bin/unshare"),
      ["-rm", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\" && rmdir \"$d\""])
    return probe?.status == 0
      ? nil : "this machine does not allow mounting a tmpfs in a user namespace (unshare -rm): \(probe?.error ?? "")"
  }()

  /// Runs a shell script in a private mount namespace in which `$SMALL` is a fresh tmpfs of
  /// `kilobytes`; what the script leaves there is gone afterwards, so it copies results out.
  static func inSmallFileSystem(kilobytes: Int, script: String, environment: [String: String]) throws -> ProcessRun {
    let small = TestPaths.temporaryDirectory("small-fs")
    let wrapped = "mount -t tmpfs -o size=\(kilobytes)k tmpfs \"$SMALL\" && { \(script)\n}"
    var variables: [String: String?] = ["SMALL": small.path]
    for (key, value) in environment { variables[key] = value }
    return try ProcessRun.run(
      URL(fileURLWithPath: "/usr/bin/unshare"), ["-rm", "sh", "-c", wrapped], environment: variables)
  }
}
