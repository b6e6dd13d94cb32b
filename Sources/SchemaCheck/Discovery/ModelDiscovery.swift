import Foundation

/// Finds the model bundles `modelc check` checks: the `.xcdatamodeld` bundles (and lone
/// `.xcdatamodel` directories) given, or found in the folders given, skipping `.build` and
/// hidden folders. Paths are reported as given (relative stays relative, without `./`), in
/// sorted order so output is deterministic.
public enum ModelDiscovery {
  /// Every model under `paths`; a path that does not exist fails.
  ///
  /// - Throws: ``CheckInputError`` (typed) naming the first path that does not exist.
  public static func models(in paths: [String]) throws(CheckInputError) -> [String] {
    var found: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CheckInputError(
          "no such file or folder '\(path)'", notes: ["pass model bundles (.xcdatamodeld) or folders holding them"])
      }
      if isModel(path) || !isDirectory.boolValue {
        found.append(clean(path))
      } else {
        found += search(clean(path))
      }
    }
    var seen = Set<String>()
    return found.filter { seen.insert($0).inserted }
  }

  private static func isModel(_ path: String) -> Bool {
    let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
    return trimmed.hasSuffix(".xcdatamodeld") || trimmed.hasSuffix(".xcdatamodel")
  }

  /// `./Models/` → `Models`; `.` stays `.`.
  private static func clean(_ path: String) -> String {
    var path = path
    while path.hasPrefix("./") { path.removeFirst(2) }
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    return path.isEmpty ? "." : path
  }

  private static func join(_ folder: String, _ name: String) -> String {
    folder == "." ? name : folder + "/" + name
  }

  /// Models below a folder, depth first in name order; a lone `.xcdatamodel` inside a bundle is
  /// part of that bundle and not listed again.
  private static func search(_ folder: String) -> [String] {
    let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    var result: [String] = []
    // Hidden folders (`.build`, `.git`, `.swiftpm`) hold build products and copies, not sources.
    for entry in entries where !entry.hasPrefix(".") {
      let path = join(folder, entry)
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
        continue
      }
      if isModel(entry) {
        result.append(path)
      } else {
        result += search(path)
      }
    }
    return result
  }
}
